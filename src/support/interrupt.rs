//! What happens when sslab gets SIGINT (Ctrl-C), SIGTERM or SIGHUP: one handler runs the
//! registered hook (killing the process groups of running programs), writes the registered
//! note with the number of fits kept, then dies of the signal as without the handler. It is
//! installed only for the signals that have the default action (not under Python, whose
//! SIGINT handler stays).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Once, OnceLock};

/// The hook, a `fn()` as an address (0: none).
static HOOK: AtomicUsize = AtomicUsize::new(0);
/// The note's text before and after the count of kept fits.
static NOTE: OnceLock<(String, String)> = OnceLock::new();
/// Fits kept so far (in the row log).
static KEPT: AtomicUsize = AtomicUsize::new(0);

/// Runs `hook` first when interrupted (async-signal-safe calls only).
pub fn set_hook(hook: fn()) {
    HOOK.store(hook as usize, Ordering::SeqCst);
    install();
}

/// Writes `before`, the number of fits kept, then `after` on stderr when interrupted (the
/// first note set is the one written).
pub fn set_note(before: String, after: String) {
    let _ = NOTE.set((before, after));
    install();
}

/// Sets the number of fits kept.
pub fn set_kept(count: usize) {
    KEPT.store(count, Ordering::SeqCst);
}

/// Counts one more fit kept.
pub fn add_kept() {
    KEPT.fetch_add(1, Ordering::SeqCst);
}

/// `n` in decimal, into the end of `buf`; the digits.
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

fn write_stderr(bytes: &[u8]) {
    // SAFETY: write(2) is async-signal-safe; the bytes outlive the call.
    unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

extern "C" fn on_signal(signal: libc::c_int) {
    let hook = HOOK.load(Ordering::SeqCst);
    if hook != 0 {
        // SAFETY: HOOK only ever holds a `fn()` stored by `set_hook`.
        let hook: fn() = unsafe { std::mem::transmute::<usize, fn()>(hook) };
        hook();
    }
    if let Some((before, after)) = NOTE.get() {
        let mut buf = [0u8; 20];
        write_stderr(before.as_bytes());
        write_stderr(decimal(KEPT.load(Ordering::SeqCst), &mut buf));
        write_stderr(after.as_bytes());
    }
    // SAFETY: signal(2) and raise(3) are async-signal-safe; the default action ends sslab.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Installs [`on_signal`] once for SIGINT, SIGTERM and SIGHUP where they have the default
/// action.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: sigaction(2) with a null new action only reads the current one; the
            // handler installed only calls async-signal-safe functions.
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut current) == 0
                    && current.sa_sigaction == libc::SIG_DFL
                {
                    let handler = on_signal as extern "C" fn(libc::c_int);
                    libc::signal(signal, handler as libc::sighandler_t);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn decimals_read_as_written() {
        let mut buf = [0u8; 20];
        assert_eq!(decimal(0, &mut buf), b"0");
        assert_eq!(decimal(40_400, &mut buf), b"40400");
        assert_eq!(decimal(usize::MAX, &mut buf), usize::MAX.to_string().as_bytes());
    }
}
