func @copy(%a: f32[16], %b: f32[16]) attributes {has_copy = true} {
  %v = affine_load %a : f32[16]
  affine_store %v, %b
}

func @copy_late(%a: f32[16], %b: f32[16]) attributes {has_copy = true} {
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
