//! Independent work on every core, the answers in the order asked: the examples of a spec
//! directory are judged one per thread at a time (each judgement has its own memo on its own
//! thread, so the answers do not depend on how the work is shared out).

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// `f` of each item of `items`, on as many threads as the machine has cores, in the order of
/// `items`. `done` is called on the calling thread for each item as its answer arrives (in the
/// order they finish), e.g. to advance a progress bar.
pub(crate) fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(&T),
) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(items.len());
    if threads <= 1 {
        return items
            .iter()
            .map(|item| {
                let r = f(item);
                done(item);
                r
            })
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut answers: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, f) = (&next, &f);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, f(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Ends when every worker has stopped (a worker's panic is raised again by the scope).
        while let Ok((i, r)) = rx.recv() {
            done(&items[i]);
            answers[i] = Some(r);
        }
    });
    answers
        .into_iter()
        .map(|a| a.expect("every item answered: a worker that stopped early panicked"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::map_in_order;

    #[test]
    fn answers_come_back_in_the_order_asked_and_each_item_is_reported_once() {
        let items: Vec<u64> = (0..200).collect();
        let mut seen = Vec::new();
        let out = map_in_order(&items, |&x| x * x, |&x| seen.push(x));
        assert_eq!(out, items.iter().map(|x| x * x).collect::<Vec<_>>());
        seen.sort_unstable();
        assert_eq!(seen, items);
        assert!(map_in_order(&[] as &[u8], |_| 0, |_| ()).is_empty());
    }
}
