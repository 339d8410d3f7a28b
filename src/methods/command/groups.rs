//! The process groups of the programs running now, so that none outlives its fit: a group is
//! killed whole when its program ends (a daemon it left in the group goes too), and when sslab
//! gets SIGINT, SIGTERM or SIGHUP every live group is killed before sslab dies of the signal
//! ([`interrupt`]; the program's own children do not get the program's `PR_SET_PDEATHSIG`). A process that
//! leaves its group (`setsid`) escapes, and nothing runs when sslab gets SIGKILL: then only
//! the program itself dies (`PR_SET_PDEATHSIG`).

use std::sync::Once;
use std::sync::atomic::{AtomicI32, Ordering};

use crate::support::interrupt;

/// Slots for the live groups (more programs than slots at once: the extra ones are only
/// killed when they end).
static LIVE: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

/// A live group, killed and forgotten when dropped.
pub(super) struct Group(i32);

impl Group {
    /// Records the group of the program `pid` (its own group: pgid = pid).
    pub fn new(pid: u32) -> Group {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| interrupt::set_hook(kill_live));
        let pgid = pid as i32;
        let _ = LIVE
            .iter()
            .find(|s| s.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst).is_ok());
        Group(pgid)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        // SAFETY: kill(2) with a negative pid signals that process group only.
        unsafe { libc::kill(-self.0, libc::SIGKILL) };
        let _ = LIVE
            .iter()
            .find(|s| s.compare_exchange(self.0, 0, Ordering::SeqCst, Ordering::SeqCst).is_ok());
    }
}

/// Kills every live group (the interrupt hook: async-signal-safe calls only).
fn kill_live() {
    for slot in &LIVE {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: kill(2) is async-signal-safe.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
    }
}
