//! The state every thread of the board shares: the table behind a lock, a
//! condition the engine driver waits on, and the pages listening for changes.

use crate::table::Table;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::{Condvar, Mutex, MutexGuard};

/// How to start the engine that plays the engine seats.
#[derive(Clone, Debug)]
pub struct EngineCommand {
    pub command: PathBuf,
    pub args: Vec<String>,
}

pub struct Shared {
    table: Mutex<Table>,
    changed: Condvar,
    listeners: Mutex<Vec<Sender<String>>>,
    pub engine: EngineCommand,
    pub quitting: AtomicBool,
}

impl Shared {
    pub fn new(table: Table, engine: EngineCommand) -> Shared {
        Shared {
            table: Mutex::new(table),
            changed: Condvar::new(),
            listeners: Mutex::new(Vec::new()),
            engine,
            quitting: AtomicBool::new(false),
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
        let view = table.view().to_string();
        drop(table);
        self.changed.notify_all();
        self.listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|page| page.send(view.clone()).is_ok());
        result
    }

    /// Waits (at most `timeout`) for a change, with the table locked.
    pub fn wait<'a>(
        &self,
        table: MutexGuard<'a, Table>,
        timeout: std::time::Duration,
    ) -> MutexGuard<'a, Table> {
        self.changed.wait_timeout(table, timeout).map_or_else(|e| e.into_inner().0, |(t, _)| t)
    }

    /// A page that wants every change; it gets the current view at once.
    pub fn listen(&self, page: Sender<String>) {
        let view = self.lock().view().to_string();
        if page.send(view).is_ok() {
            self.listeners.lock().unwrap_or_else(|e| e.into_inner()).push(page);
        }
    }
}
