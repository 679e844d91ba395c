//! Ctrl-C (SIGINT), SIGTERM (what `timeout` and CI cancellations send) and
//! SIGHUP (a closed terminal) never leave an engine behind. The signals are
//! blocked in every thread and taken by one thread of their own with
//! `sigwait`, so nothing runs in a signal handler. The first one goes to
//! the caller's `first` (arena stops its games, saves its state and kills
//! its engines; the board kills them at once); a second kills every engine
//! with everything it started ([`crate::reap::kill_all`]) and exits with
//! 128 + the signal. A panic anywhere kills every engine too. Engines are
//! started with no signal blocked (the standard library clears the mask in
//! a child).

/// The signals that stop arena and the board.
#[cfg(unix)]
const STOPPING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Blocks the stopping signals in this thread (and so in every thread it
/// starts afterwards: call it first) and starts the thread that takes
/// them; `first` gets the first signal's number, and `name` says who
/// stopped on a second one.
#[cfg(unix)]
pub fn on_stop_signals(name: &'static str, first: impl Fn(i32) + Send + 'static) -> std::io::Result<()> {
    // SAFETY: sigset_t is plain data, initialised by sigemptyset before use;
    // pthread_sigmask only reads the set.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in STOPPING {
            libc::sigaddset(&mut set, signal);
        }
        let blocked = libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        if blocked != 0 {
            return Err(std::io::Error::from_raw_os_error(blocked));
        }
        set
    };
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        let mut taken = 0;
        loop {
            let mut signal: libc::c_int = 0;
            // SAFETY: sigwait reads the set and writes one integer we own.
            if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
                continue;
            }
            taken += 1;
            if taken == 1 {
                first(signal);
                continue;
            }
            crate::reap::kill_all();
            eprintln!("{name}: stopped at once (signal {signal}); its engines are stopped too");
            std::process::exit(128 + signal);
        }
    })?;
    Ok(())
}

/// Elsewhere the default handling stays.
#[cfg(not(unix))]
pub fn on_stop_signals(_name: &'static str, _first: impl Fn(i32) + Send + 'static) -> std::io::Result<()> {
    Ok(())
}

/// A panic in any thread kills every engine with everything it started,
/// says what happened (the standard report), and ends the process with
/// status 101, as an unwinding panic of the main thread does.
pub fn kill_engines_on_panic() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        crate::reap::kill_all();
        report(info);
        std::process::exit(101);
    }));
}
