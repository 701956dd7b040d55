// Never bucketed with %a_s: no group_id, an empty one, pinned, two
// operands already, another factor or dimension, another process group.
// %i_s is like %a_s and joins it.
func @f(%p: bf16[4], %q: bf16[4], %r: bf16[4], %s: bf16[4], %t: bf16[4], %u: bf16[4], %v: bf16[4], %w: bf16[2,2], %x: bf16[4], %y: bf16[4]) {
  %a_s = all_gather_start %p {group_id = "dp"} : bf16[8]
  %a = all_gather_done %a_s : bf16[8]
  %b_s = all_gather_start %q : bf16[8]
  %b = all_gather_done %b_s : bf16[8]
  %c_s = all_gather_start %r {group_id = ""} : bf16[8]
  %c = all_gather_done %c_s : bf16[8]
  %d_s = all_gather_start %s {group_id = "dp", pinned = true} : bf16[8]
  %d = all_gather_done %d_s : bf16[8]
  %e_s, %e2_s = all_gather_start %t, %u {group_id = "dp"} : (bf16[8], bf16[8])
  %e, %e2 = all_gather_done %e_s, %e2_s : (bf16[8], bf16[8])
  %f_s = all_gather_start %v {group_id = "dp", factor = 2} : bf16[8]
  %f = all_gather_done %f_s : bf16[8]
  %g_s = all_gather_start %w {group_id = "dp", dimension = 1} : bf16[2,4]
  %g = all_gather_done %g_s : bf16[2,4]
  %h_s = all_gather_start %x {group_id = "tp"} : bf16[8]
  %h = all_gather_done %h_s : bf16[8]
  %i_s = all_gather_start %y {group_id = "dp"} : bf16[8]
  %i = all_gather_done %i_s : bf16[8]
  return %a, %b, %c, %d, %e, %e2, %f, %g, %h, %i
}
