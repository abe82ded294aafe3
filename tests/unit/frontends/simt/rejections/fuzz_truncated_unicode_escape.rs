// expect: 4:8: cannot find value `t` in this scope
#[kernel]
 fn hello(scale: char) {
    if t == 0 {
        ("block {} of {}: scale = {:.\u{3}, mask {:#x}\n"  ()  )
    }
}
