func @noargs() attributes {has_copy = true, has_reduce = false, note = "x", order = [3, 1, 2]} {
  return
}
func @emptyattrs() attributes {} {
}
func @empty() {}
