func @f(%x: f32[4]) {
  %y = acme.scale %x {factor = 2, axes = [0,