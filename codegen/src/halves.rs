//! Work split in two halves on two threads (a leaf: the plans, the graph's ranking and
//! the search documents use it). Generation runs on build machines with a few cores;
//! two halves use the second core where a stage would leave it idle, and keep the
//! result in order.

/// `each` over the two halves of `items` (the second on another thread), the results
/// in `items`' order. `each` gets a whole half, so that it can keep a cache per half.
/// Fewer than `2 * least` items are done here, where a thread costs more than it saves.
pub(crate) fn in_halves<T: Sync, R: Send>(
    items: &[T],
    least: usize,
    each: impl Fn(&[T]) -> Vec<R> + Sync,
) -> Vec<R> {
    let half = items.len() / 2;
    if half < least {
        return each(items);
    }
    let (first, second) = items.split_at(half);
    std::thread::scope(|scope| {
        // No thread to be had (a process at its limit): all of it here.
        let Ok(second) = std::thread::Builder::new().spawn_scoped(scope, || each(second)) else {
            return each(items);
        };
        let mut done = each(first);
        // A panic on the other thread is a generator bug; surface it unchanged.
        done.extend(
            second
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        );
        done
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order() {
        let items: Vec<u32> = (0..1000).collect();
        let doubled = in_halves(&items, 10, |half| half.iter().map(|i| i * 2).collect());
        assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(in_halves(&items[..3], 10, |half| half.to_vec()), [0, 1, 2]);
    }
}
