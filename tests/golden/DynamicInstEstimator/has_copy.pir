// has_copy is set only by an affine_store whose stored value (operand 0)
// is the result of an affine_load.
//   @copy                   affine_store of an affine_load result: has_copy = true
//   @copy_late              the same, with other instructions between: true
//   @generic_store_of_load  generic_store, not affine_store: none
//   @store_of_generic_load  the stored value comes from generic_load: none
//   @store_of_arg           the stored value is an argument: none
//   @store_of_other         the stored value comes from acme.scale: none
//   @load_is_the_buffer     the load result is operand 1 (the buffer): none
// No flag is written false: the functions without a copy keep no attribute.
// Every count is 16 elements: 16 / 65536 = 0, est_inst_count = 0.
func @copy(%a: f32[16], %b: f32[16]) {
  %v = affine_load %a : f32[16]
  affine_store %v, %b
}

func @copy_late(%a: f32[16], %b: f32[16]) {
  %v = affine_load %a : f32[16]
  %w = acme.scale %v : f32[16]
  affine_store %w, %b
  affine_store %v, %b
}

func @generic_store_of_load(%a: f32[16], %b: f32[16]) {
  %v = affine_load %a : f32[16]
  generic_store %v, %b
}

func @store_of_generic_load(%a: f32[16], %b: f32[16]) {
  %v = generic_load %a : f32[16]
  affine_store %v, %b
}

func @store_of_arg(%a: f32[16], %b: f32[16]) {
  affine_store %a, %b
}

func @store_of_other(%a: f32[16], %b: f32[16]) {
  %v = affine_load %a : f32[16]
  %w = acme.scale %v : f32[16]
  affine_store %w, %b
}

func @load_is_the_buffer(%a: f32[16], %b: f32[16]) {
  %v = affine_load %a : f32[16]
  affine_store %b, %v
}
