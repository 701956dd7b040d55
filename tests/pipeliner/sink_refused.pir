// Forward-sink: all-reduces XLA's sink leaves in their loops, one loop
// each, and why (collective_pipeliner.cc's IsSupportedDynamicUpdateSlice
// and CheckStoreIntoSliceIsCompatible): a buffer of 5 rows filled by a
// loop of 4 trips; an update indexed in its second dimension; a
// reduce-scatter after the all-reduce (XLA's sink carries none along).
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body1(%i: i32[], %acc: f32[5,8], %x: f32[1,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %a1 = all_reduce %x {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add"} : f32[1,8]
  %d = hlo.dynamic_update_slice %acc, %a1, %i, %z : f32[5,8]
  return %n, %d, %x
}

func @cond1(%i: i32[], %acc: f32[5,8], %x: f32[1,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @body2(%i: i32[], %acc: f32[8,4], %x: f32[8,1]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %a2 = all_reduce %x {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add"} : f32[8,1]
  %d = hlo.dynamic_update_slice %acc, %a2, %z, %i : f32[8,4]
  return %n, %d, %x
}

func @cond2(%i: i32[], %acc: f32[8,4], %x: f32[8,1]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @body3(%i: i32[], %acc: f32[4,4], %x: f32[1,8]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %a3 = all_reduce %x {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add"} : f32[1,8]
  %rs = reduce_scatter %a3 {group_id = "tp", factor = 2, reduce = "add", hlo_to_apply = "add", dimension = 1, hlo_dimensions = "{1}"} : f32[1,4]
  %d = hlo.dynamic_update_slice %acc, %rs, %i, %z : f32[4,4]
  return %n, %d, %x
}

func @cond3(%i: i32[], %acc: f32[4,4], %x: f32[1,8]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%a1: f32[5,8], %a2: f32[8,4], %a3: f32[4,4], %x: f32[1,8], %y: f32[8,1]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %l1$0, %l1$1, %l1$2 = hlo.while %z, %a1, %x {hlo_body = "body1", hlo_condition = "cond1"} : (i32[], f32[5,8], f32[1,8])
  %l2$0, %l2$1, %l2$2 = hlo.while %z, %a2, %y {hlo_body = "body2", hlo_condition = "cond2"} : (i32[], f32[8,4], f32[8,1])
  %l3$0, %l3$1, %l3$2 = hlo.while %z, %a3, %x {hlo_body = "body3", hlo_condition = "cond3"} : (i32[], f32[4,4], f32[1,8])
  return %l1$1, %l2$1, %l3$1
}
