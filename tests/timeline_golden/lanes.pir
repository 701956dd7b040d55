// Lane numbers of a whole step (tests/timeline.sh): the entry reduces over
// the first group, then loops; the loop's body reduces over the second
// group before the first. Both names are longer than a lane's label, so
// each lane is labelled "@N ...": N is the group's number in the step (the
// order groups are first drawn), the same in every panel, and each panel
// draws its lanes in that order.
func @body(%i: i32[], %x: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %b = all_reduce %x {group_id = "second-kind-of-replicas:{{0,1},{2,3}}", factor = 2, reduce = "add"} : f32[16]
  %a = all_reduce %b {group_id = "first-kind-of-replicas:{{0,1,2,3}}", factor = 4, reduce = "add"} : f32[16]
  return %n, %a
}

func @cond(%i: i32[], %x: f32[16]) {
  %c = hlo.constant {hlo_constant = "2"} : i32[]
  %q = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %q
}

func @main(%x: f32[16]) attributes {entry = true} {
  %r = all_reduce %x {group_id = "first-kind-of-replicas:{{0,1,2,3}}", factor = 4, reduce = "add"} : f32[16]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %l$0, %l$1 = hlo.while %z, %r {hlo_body = "body", hlo_condition = "cond"} : (i32[], f32[16])
  return %l$1
}
