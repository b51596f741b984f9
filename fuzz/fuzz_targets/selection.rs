//! A `selection` argument as a model may send it: any text is parsed, checked against
//! a schema's types and printed anew, or refused, without panicking; what is accepted
//! parses again to itself (printing is stable) and never closes the selection set it
//! goes in.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::graphql::{TypeTable, selection};

const TYPES: &str = "O Query repository(owner!,name!):Repository search(query!,first):Results\n\
O Repository id:ID name:String owner:Owner issues(first!,after,states):IssueConnection readme(path!):String\n\
O IssueConnection totalCount:Int nodes:Issue\n\
O Issue number:Int title:String author:User\n\
O User login:String\n\
I Owner login:String\n\
U Results\n\
P Owner User\n\
P Results Issue User\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let types = TypeTable::parse(TYPES);
    if let Ok(printed) = selection::check(text, "Repository", &types) {
        assert_eq!(
            selection::check(&printed, "Repository", &types).as_deref(),
            Ok(printed.as_str())
        );
        let mut depth = 0i64;
        let mut in_string = false;
        let mut escaped = false;
        for c in printed.chars() {
            match (in_string, escaped, c) {
                (true, true, _) => escaped = false,
                (true, false, '\\') => escaped = true,
                (true, false, '"') => in_string = false,
                (true, _, _) => {}
                (false, _, '"') => in_string = true,
                (false, _, '{') => depth += 1,
                (false, _, '}') => {
                    depth -= 1;
                    assert!(depth >= 0, "closes the enclosing selection: {printed}");
                }
                _ => {}
            }
        }
        assert_eq!(depth, 0, "{printed}");
    }
});
