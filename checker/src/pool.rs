//! The checker's one worker pool: a few threads take the items of a list in order, one at
//! a time, until none is left (grading runs a lesson's tests this way, `class` its
//! students).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Calls `work(index, item)` for every item, on `workers` threads (at least one).
pub fn for_each<T: Sync>(items: &[T], workers: usize, work: impl Fn(usize, &T) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = items.get(index) else {
                        break;
                    };
                    work(index, item);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_is_worked_on_once() {
        let done = std::sync::Mutex::new(Vec::new());
        super::for_each(&[10, 20, 30, 40, 50], 3, |index, item| {
            done.lock().unwrap().push((index, *item));
        });
        let mut done = done.into_inner().unwrap();
        done.sort();
        assert_eq!(done, [(0, 10), (1, 20), (2, 30), (3, 40), (4, 50)]);
    }
}
