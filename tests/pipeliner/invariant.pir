// Forward pipelining of forward.pir's reduce-scatter and all-reduce, with
// a chain that reads an iota and a body that makes a call nothing reads.
// The iota is a loop-invariant input of the concatenate (XLA's "simple
// dependency": constants, partition and replica ids, iotas): it is cloned
// after the loop beside the last collective (%io.last), not carried as one
// more loop element. The call is peeled before the loop with the first
// trip (%cl.peeled) and kept there although nothing reads it: the dead
// code the rewrite leaves is removed, but not a call, which may have
// effects.
func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @body(%i: i32[], %grads: bf16[4,16], %x: f32[16]) {
  %one = hlo.constant {hlo_constant = "1"} : i32[]
  %n = hlo.add %i, %one : i32[]
  %y = hlo.multiply %x, %x : f32[16]
  %rs = reduce_scatter %y {group_id = "dp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "1"} : f32[8]
  %ar = all_reduce %rs {group_id = "pp", factor = 2, reduce = "add", hlo_to_apply = "add", hlo_channel_id = "2"} : f32[8]
  %c = hlo.convert %ar : bf16[8]
  %io = hlo.iota {hlo_iota_dimension = "0"} : bf16[8]
  %k = hlo.concatenate %c, %io {hlo_dimensions = "{0}"} : bf16[16]
  %r = hlo.reshape %k : bf16[1,16]
  %h = hlo.constant {hlo_constant = "0.5"} : f32[]
  %cl = hlo.call %h, %h {hlo_to_apply = "add"} : f32[]
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %d = hlo.dynamic_update_slice %grads, %r, %i, %z : bf16[4,16]
  return %n, %d, %y
}

func @cond(%i: i32[], %grads: bf16[4,16], %x: f32[16]) {
  %c = hlo.constant {hlo_constant = "4"} : i32[]
  %p = hlo.compare %i, %c {hlo_direction = "LT"} : bool[]
  return %p
}

func @main(%g0: bf16[4,16], %x: f32[16]) attributes {entry = true} {
  %z = hlo.constant {hlo_constant = "0"} : i32[]
  %loop$0, %loop$1, %loop$2 = hlo.while %z, %g0, %x {hlo_body = "body", hlo_condition = "cond"} : (i32[], bf16[4,16], f32[16])
  return %loop$1
}
