func @hidden(%x: f32[100], %w: f32[100]) {
  %s = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %a = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[100]
  %g = all_gather_done %s : f32[400]
  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]
  return %a, %b
}

func @partly(%x: f32[100], %w: f32[100]) {
  %s = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %a = tensor_contract %x, %w {num_dynamic_instances = 50000} : f32[100]
  %g = all_gather_done %s : f32[400]
  %b = tensor_contract %g, %w {num_dynamic_instances = 5000} : f32[100]
  return %a, %b
}

func @two_groups(%x: f32[100], %y: f32[100], %w: f32[100]) {
  %s1 = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %s2 = all_reduce_start %y {group_id = "tp", factor = 2, reduce = "add"} : f32[100]
  %a = tensor_contract %x, %w {num_dynamic_instances = 25000} : f32[100]
  %d2 = all_reduce_done %s2 : f32[100]
  %d1 = all_gather_done %s1 : f32[400]
  return %a, %d1, %d2
}

func @busy(%x: f32[100], %y: f32[100], %w: f32[100]) {
  %s1 = all_gather_start %x {group_id = "dp", factor = 4} : f32[400]
  %s2 = all_gather_start %y {group_id = "dp", factor = 4} : f32[400]
  %a = tensor_contract %x, %w {num_dynamic_instances = 100000} : f32[100]
  %d1 = all_gather_done %s1 : f32[400]
  %d2 = all_gather_done %s2 : f32[400]
  return %a, %d1, %d2
}
