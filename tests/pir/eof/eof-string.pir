func @f(%x: f32[4]) {
  %y = acme.scale %x {name = "half