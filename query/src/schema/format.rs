//! The `format`s cheap enough to check on every call. Others are annotations.

use serde_json::Number;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Date,
    DateTime,
    Time,
    Uuid,
    Email,
    Int32,
    Int64,
    /// Base64 text (RFC 4648, padded).
    Byte,
    /// ISO 8601 duration (`P1DT2H`, `PT15M`).
    Duration,
}

impl Format {
    pub fn named(name: &str) -> Option<Format> {
        Some(match name {
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            "time" => Format::Time,
            "uuid" => Format::Uuid,
            "email" => Format::Email,
            "int32" => Format::Int32,
            "int64" => Format::Int64,
            "byte" => Format::Byte,
            "duration" => Format::Duration,
            _ => return None,
        })
    }

    /// Strings of this format (numbers' formats say nothing about strings).
    pub fn check_str(self, s: &str) -> Result<(), &'static str> {
        let ok = match self {
            Format::Date => date(s),
            Format::DateTime => date_time(s),
            Format::Time => time(s),
            Format::Uuid => uuid(s),
            Format::Email => email(s),
            Format::Byte => crate::base64::decode(s).is_some(),
            Format::Duration => duration(s),
            Format::Int32 | Format::Int64 => true,
        };
        if ok {
            Ok(())
        } else {
            Err(match self {
                Format::Date => "must be a date like 2024-01-31 (format date)",
                Format::DateTime => {
                    "must be a date-time like 2024-01-31T12:00:00Z (format date-time)"
                }
                Format::Time => "must be a time like 12:00:00Z (format time)",
                Format::Uuid => "must be a UUID (format uuid)",
                Format::Byte => "must be base64-encoded bytes (format byte)",
                Format::Duration => "must be an ISO 8601 duration like PT1H30M (format duration)",
                _ => "must be an email address (format email)",
            })
        }
    }

    /// Integers of a sized format stay within it.
    pub fn check_number(self, n: &Number) -> Result<(), &'static str> {
        match self {
            Format::Int32 if n.as_i64().is_none_or(|i| i32::try_from(i).is_err()) => {
                Err("must fit a 32-bit signed integer (format int32)")
            }
            Format::Int64 if n.as_i64().is_none() => {
                Err("must fit a 64-bit signed integer (format int64)")
            }
            _ => Ok(()),
        }
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

/// RFC 3339 `full-date`.
fn date(s: &str) -> bool {
    let mut parts = s.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339 `full-time`: `hh:mm:ss[.frac](Z|±hh:mm)`, leap second allowed.
fn time(s: &str) -> bool {
    let (clock, offset) = match s.find(['Z', 'z', '+', '-']) {
        Some(at) => s.split_at(at),
        None => return false,
    };
    let offset_ok = matches!(offset, "Z" | "z")
        || (offset.len() == 6
            && offset.as_bytes()[3] == b':'
            && digits(&offset[1..3], 2).is_some_and(|h| h < 24)
            && digits(&offset[4..], 2).is_some_and(|m| m < 60));
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, "0"));
    let mut parts = hms.split(':');
    let (Some(h), Some(m), Some(sec), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    offset_ok
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit())
        && digits(h, 2).is_some_and(|h| h < 24)
        && digits(m, 2).is_some_and(|m| m < 60)
        && digits(sec, 2).is_some_and(|s| s <= 60)
}

fn date_time(s: &str) -> bool {
    match s.find(['T', 't', ' ']) {
        Some(at) => date(&s[..at]) && time(&s[at + 1..]),
        None => false,
    }
}

/// RFC 3339 appendix A `duration`: `P` then date parts (`nY nM nD` or `nW`), then an
/// optional `T` with time parts (`nH nM nS`); at least one part.
fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, Some(t)),
        Some(_) => return false,
        None => (rest, None),
    };
    let parts = |text: &str, units: &[u8]| -> Option<usize> {
        let mut count = 0;
        let mut next_unit = 0;
        let mut digits = 0;
        for b in text.bytes() {
            if b.is_ascii_digit() {
                digits += 1;
                continue;
            }
            let at = units[next_unit..].iter().position(|u| *u == b)? + next_unit;
            if digits == 0 {
                return None;
            }
            next_unit = at + 1;
            digits = 0;
            count += 1;
        }
        (digits == 0).then_some(count)
    };
    let date_parts = if date.ends_with('W') {
        parts(date, b"W")
    } else {
        parts(date, b"YMD")
    };
    let time_parts = time.map_or(Some(0), |t| parts(t, b"HMS"));
    match (date_parts, time_parts) {
        (Some(d), Some(t)) => d + t > 0 && (time.is_none() || t > 0),
        _ => false,
    }
}

fn uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A pragmatic address check: one `@`, a non-empty local part, a dotted domain.
fn email(s: &str) -> bool {
    match s.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !local.contains(char::is_whitespace)
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && domain
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '.')
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        for ok in ["2024-02-29", "1999-12-31"] {
            assert!(date(ok), "{ok}");
        }
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "24-01-01",
            "2024-01-32",
        ] {
            assert!(!date(bad), "{bad}");
        }
        for ok in [
            "2024-01-31T12:00:00Z",
            "2024-01-31t12:00:00.123+05:30",
            "2024-01-31T23:59:60-01:00",
        ] {
            assert!(date_time(ok), "{ok}");
        }
        for bad in [
            "2024-01-31",
            "2024-01-31T25:00:00Z",
            "2024-01-31T12:00:00",
            "2024-01-31T12:00Z",
        ] {
            assert!(!date_time(bad), "{bad}");
        }
        for ok in ["P1D", "PT1H30M", "P1Y2M3DT4H5M6S", "P2W", "PT15S"] {
            assert!(duration(ok), "{ok}");
        }
        for bad in ["P", "PT", "1D", "P1H", "PT1D", "P1M1Y", "PXD"] {
            assert!(!duration(bad), "{bad}");
        }
        assert!(uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!uuid("123e4567e89b12d3a456426614174000"));
        assert!(email("a.b+c@example.co.uk"));
        for bad in ["a@b", "@x.com", "a b@x.com", "a@.x.com", "plain"] {
            assert!(!email(bad), "{bad}");
        }
        assert!(
            Format::Int32
                .check_number(&Number::from(1i64 << 31))
                .is_err()
        );
        assert!(
            Format::Int32
                .check_number(&Number::from(-(1i64 << 31)))
                .is_ok()
        );
    }
}
