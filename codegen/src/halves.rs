//! Work split in two halves on two threads (a leaf: the plans, the plans made from
//! operations given away, and the graph's ranking use it). Generation runs on build
//! machines with a few cores; two halves use the second core where a stage would leave
//! it idle, and keep the result in order.

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

/// [`in_halves`] over owned `items`: `each` gets a half by value, with the position of
/// its first item in `items` (so it can drop each item once it is done with it).
pub(crate) fn in_owned_halves<T: Send, R: Send>(
    mut items: Vec<T>,
    least: usize,
    each: impl Fn(Vec<T>, usize) -> Vec<R> + Sync,
) -> Vec<R> {
    let half = items.len() / 2;
    if half < least {
        return each(items, 0);
    }
    // Held where this thread can take it back if no other thread can be had (a process
    // at its limit): a closure that was never run would drop it.
    let second = std::sync::Mutex::new(Some(items.split_off(half)));
    let take = || {
        second
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .unwrap_or_default()
    };
    std::thread::scope(|scope| {
        let other = std::thread::Builder::new().spawn_scoped(scope, || each(take(), half));
        let mut done = each(items, 0);
        match other {
            // A panic on the other thread is a generator bug; surface it unchanged.
            Ok(other) => done.extend(
                other
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            ),
            Err(_) => done.extend(each(take(), half)),
        }
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
        let owned = |half: Vec<u32>, start: usize| {
            half.into_iter()
                .enumerate()
                .map(|(i, item)| (start + i, item * 2))
                .collect()
        };
        let expected: Vec<(usize, u32)> = items.iter().map(|&i| (i as usize, i * 2)).collect();
        assert_eq!(in_owned_halves(items.clone(), 10, owned), expected);
        assert_eq!(
            in_owned_halves(items[..3].to_vec(), 10, owned),
            expected[..3]
        );
    }
}
