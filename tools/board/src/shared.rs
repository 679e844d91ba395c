//! The state every thread of the board shares: the table behind a lock, a
//! condition the engine driver waits on, and the latest view of the table
//! for the pages' event streams; and the thread that flags a clock that
//! falls while nobody moves.

use crate::clock::WATCH;
use crate::table::Table;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How to start the engine that plays the engine seats.
#[derive(Clone, Debug)]
pub struct EngineCommand {
    pub command: PathBuf,
    pub args: Vec<String>,
}

/// The latest view, numbered: a page's stream sends it when the number is
/// new to it. Each view is the whole table, so a page that falls behind
/// skips to the latest; nothing queues up per page.
#[derive(Clone, Default)]
pub struct Published {
    pub number: u64,
    pub view: Arc<String>,
}

pub struct Shared {
    table: Mutex<Table>,
    changed: Condvar,
    published: Mutex<Published>,
    republished: Condvar,
    pub engine: EngineCommand,
    pub quitting: AtomicBool,
    /// Event streams open now (see `server`).
    pub streams: AtomicUsize,
}

impl Shared {
    pub fn new(table: Table, engine: EngineCommand) -> Shared {
        let view = Arc::new(table.view().to_string());
        Shared {
            table: Mutex::new(table),
            changed: Condvar::new(),
            published: Mutex::new(Published { number: 1, view }),
            republished: Condvar::new(),
            engine,
            quitting: AtomicBool::new(false),
            streams: AtomicUsize::new(0),
        }
    }

    /// The table, locked. A thread that panicked while holding it left a
    /// table that every change keeps consistent, so the lock is taken anyway.
    pub fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the table and tells the driver and every page.
    pub fn update<R>(&self, change: impl FnOnce(&mut Table) -> R) -> R {
        let mut table = self.lock();
        let result = change(&mut table);
        let view = Arc::new(table.view().to_string());
        // Published under the table's lock, so views go out in order.
        {
            let mut published = self.published.lock().unwrap_or_else(|e| e.into_inner());
            published.number += 1;
            published.view = view;
        }
        drop(table);
        self.changed.notify_all();
        self.republished.notify_all();
        result
    }

    /// Waits (at most `timeout`) for a change, with the table locked.
    pub fn wait<'a>(&self, table: MutexGuard<'a, Table>, timeout: Duration) -> MutexGuard<'a, Table> {
        self.changed.wait_timeout(table, timeout).map_or_else(|e| e.into_inner().0, |(t, _)| t)
    }

    /// The latest view once its number is above `seen`, or `None` when
    /// `timeout` passes first.
    pub fn next_view(&self, seen: u64, timeout: Duration) -> Option<Published> {
        let published = self.published.lock().unwrap_or_else(|e| e.into_inner());
        let (published, _) = self
            .republished
            .wait_timeout_while(published, timeout, |p| p.number <= seen)
            .unwrap_or_else(|e| e.into_inner());
        (published.number > seen).then(|| published.clone())
    }
}

/// Flags a clock that falls while nobody moves: waits for the running
/// clock's end (or a change) and loses that seat the game on time.
pub fn watch_clocks(shared: Arc<Shared>) {
    let mut table = shared.lock();
    loop {
        if shared.quitting.load(Ordering::Relaxed) {
            return;
        }
        let now = Instant::now();
        let due = table.clock.as_ref().and_then(|c| c.due(now));
        if due.is_some_and(|d| d.is_zero()) {
            drop(table);
            shared.update(|t| t.flag(Instant::now()));
            table = shared.lock();
            continue;
        }
        let wait = due.map_or(WATCH, |d| d.min(WATCH) + Duration::from_millis(1));
        table = shared.wait(table, wait);
    }
}
