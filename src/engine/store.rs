//! A cache of values keyed by type and name, owned by the runner and filled by the
//! families (kernels, graphs, per-split moments): the first caller computes a value, later
//! callers (and concurrent ones, who wait) share it. Failed computations are not kept.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, PoisonError};

use crate::error::Result;

type Slot = Arc<Mutex<Option<Arc<dyn Any + Send + Sync>>>>;

/// Values of any type, each computed once per key.
#[derive(Default)]
pub struct Store {
    slots: Mutex<Vec<(TypeId, String, Slot)>>,
}

impl Store {
    /// The value of type `T` under `key`, computed by `init` on first use.
    pub fn get<T: Any + Send + Sync>(
        &self,
        key: &str,
        init: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            let id = TypeId::of::<T>();
            match slots.iter().find(|(t, k, _)| *t == id && k == key) {
                Some((_, _, s)) => s.clone(),
                None => {
                    let s = Slot::default();
                    slots.push((id, key.to_string(), s.clone()));
                    s
                }
            }
        };
        let mut value = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if value.is_none() {
            *value = Some(Arc::new(init()?));
        }
        let any = value.clone().expect("set above");
        Ok(any.downcast::<T>().expect("slots are keyed by type"))
    }
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.slots.lock().map_or(0, |s| s.len());
        write!(f, "Store({n} values)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn computes_once_per_type_and_key_and_forgets_failures() {
        let store = Store::default();
        let mut calls = 0;
        for _ in 0..3 {
            let v = store.get("a", || {
                calls += 1;
                Ok(7usize)
            });
            assert_eq!(*v.unwrap(), 7);
        }
        assert_eq!(calls, 1);
        assert_eq!(*store.get("a", || Ok(1.5f64)).unwrap(), 1.5);
        assert!(store.get::<u8>("b", || Err(Error::Data("no".into()))).is_err());
        assert_eq!(*store.get("b", || Ok(3u8)).unwrap(), 3);
    }
}
