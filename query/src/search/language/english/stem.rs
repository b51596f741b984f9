//! English's stemmer and its one spelling rule.

/// A light suffix stemmer (plural, `-ing`, `-ed`, `-tion`, final `e`/`y`): the same
/// stem for `create`, `creates`, `created`, `creating`, `creation`, and for
/// `repository`/`repositories`. Not linguistics — both sides only need to agree.
pub(super) fn stem(word: &str) -> String {
    if word.len() <= 3 || !word.is_ascii() || word.bytes().any(|b| b.is_ascii_digit()) {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    if let Some(base) = w.strip_suffix("ies")
        && base.len() >= 2
    {
        w = format!("{base}i");
    } else if w.ends_with("sses")
        || w.ends_with("shes")
        || w.ends_with("ches")
        || w.ends_with("xes")
    {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.pop();
    }
    for suffix in ["ings", "ing", "ed"] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.len() >= 3
            && base.bytes().any(is_vowel)
        {
            w = base.to_owned();
            // running → run, stopped → stop (not `ll`, `ss`, `zz`: install, access).
            let b = w.as_bytes();
            if b.len() >= 2
                && b[b.len() - 1] == b[b.len() - 2]
                && !is_vowel(b[b.len() - 1])
                && !matches!(b[b.len() - 1], b'l' | b's' | b'z')
            {
                w.pop();
            }
            break;
        }
    }
    // assignee → assign, invitee → invit(e), payee stays (too short to tell).
    if let Some(base) = w.strip_suffix("ee")
        && base.len() >= 4
    {
        w = base.to_owned();
    }
    if let Some(base) = w.strip_suffix("tion")
        && base.len() >= 3
    {
        // creation → creat(e), deletion → delet(e).
        w = format!("{base}t");
    }
    if w.len() > 3 && (w.ends_with('e') || w.ends_with('y')) {
        let last = w.pop();
        if last == Some('y') {
            w.push('i');
        }
    }
    w
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Whether `a` and `b` are one word spelled the British and the American way: one
/// letter apart where the two spellings differ — `s`/`z` (organise), `c`/`s` after
/// `n` (licence), a doubled `l` (cancelled) or the `u` of `-our` (colour).
pub(super) fn other_spelling(a: &[u8], b: &[u8]) -> bool {
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // No such pair differs in its first two letters (which lets `Index::spelled` look
    // only among the terms that share them).
    if start < 2 {
        return false;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.len() == long.len() {
        let pair = [short[start], long[start]];
        // `-ence`/`-ense` only: "basic" is not "basis".
        let ence = start > 0 && short[start - 1] == b'n';
        let swapped = match pair {
            [b's', b'z'] | [b'z', b's'] => true,
            [b'c', b's'] | [b's', b'c'] => ence,
            _ => false,
        };
        swapped && short[start + 1..] == long[start + 1..]
    } else {
        // The long one has a letter more at `start`.
        let extra = long[start];
        let doubled = extra == b'l' && start > 0 && long[start - 1] == b'l';
        let our = extra == b'u' && start > 0 && long[start - 1] == b'o';
        (doubled || our) && short[start..] == long[start + 1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_share_a_stem() {
        for group in [
            &["create", "creates", "created", "creating", "creation"][..],
            &["repository", "repositories"],
            &["delete", "deletes", "deleted", "deleting", "deletion"],
            &["issue", "issues"],
            &["branch", "branches"],
            &["run", "runs", "running"],
            &["subscription", "subscriptions"],
            &["assign", "assignee", "assignees"],
            &["invite", "invitee", "invitees"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.iter().all(|s| *s == stems[0]),
                "{group:?} → {stems:?}"
            );
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("access"), "access");
        assert_eq!(stem("v2"), "v2");
    }
}
