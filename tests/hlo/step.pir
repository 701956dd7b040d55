func @add(%a: f32[], %b: f32[]) {
  %s = hlo.add %a, %b : f32[]
  return %s
}

func @main(%p$0: f32[8,16], %p$1: f32[16,4]) attributes {hlo_param_shapes = ["(f32[8,16], f32[16,4])"], hlo_entry = true, hlo_module = "HloModule step, replica_count=4"} {
  %wg = all_gather %p$1 {group_id = "replica:{{0,1,2,3}}", factor = 4, dimension = 0, hlo_operand_names = ["w"], hlo_replica_groups = "[1,4]<=[4]", hlo_dimensions = "{0}"} : f32[64,4]
  %y = tensor_contract %p$0, %p$1 {domain = [8, 4, 16], hlo_operand_names = ["x", "w"], hlo_lhs_contracting_dims = "{1}", hlo_rhs_contracting_dims = "{0}", hlo_metadata = "{op_name=\"mm\"}"} : f32[8,4]
  %g = reduce_scatter %y {factor = 4, dimension = 0, reduce = "add", hlo_replica_groups = "{{0,1,2,3}}", hlo_dimensions = "{0}", hlo_to_apply = "add", pinned = true} : f32[2,4]
  %r = all_reduce %y {factor = 4, reduce = "add", hlo_replica_groups = "{}", hlo_to_apply = "add", hlo_control_predecessors = "{g}", pinned = true} : f32[8,4]
  return %g, %r, %wg {hlo_name = "t", hlo_shape = "(f32[2,4]{1,0}, f32[8,4]{1,0}, f32[64,4]{1,0})", hlo_opcode = "tuple"}
}
