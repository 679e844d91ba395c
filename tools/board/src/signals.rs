//! Ctrl-C (SIGINT), SIGTERM and SIGHUP stop the board and every engine it
//! started. The signals are blocked in every thread and taken by one thread
//! of their own with `sigwait`, so nothing runs in a signal handler: that
//! thread kills the engines with everything they started (arena's
//! [`arena::reap::kill_all`]) and exits. Engines are started with no signal
//! blocked (the standard library clears the mask in a child).

/// The signals that stop the board.
#[cfg(unix)]
const STOPPING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Blocks the stopping signals in this thread (and so in every thread it
/// starts afterwards: call it first) and starts the thread that takes them.
#[cfg(unix)]
pub fn stop_engines_on_signals() -> std::io::Result<()> {
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
    std::thread::Builder::new().name("signals".into()).spawn(move || loop {
        let mut signal: libc::c_int = 0;
        // SAFETY: sigwait reads the set and writes one integer we own.
        if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
            continue;
        }
        arena::reap::kill_all();
        eprintln!("tabula-board: stopped (signal {signal}); its engines are stopped too");
        std::process::exit(128 + signal);
    })?;
    Ok(())
}

/// Elsewhere the default handling stays.
#[cfg(not(unix))]
pub fn stop_engines_on_signals() -> std::io::Result<()> {
    Ok(())
}
