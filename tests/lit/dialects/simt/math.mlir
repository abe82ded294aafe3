// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @libdevice_f32
func.func @libdevice_f32(%x: f32, %y: f32, %z: f32) -> f32 {
  // CHECK: "simt.libdevice"(%{{.*}}, %{{.*}}) {fn = "hypot"} : (f32, f32) -> f32
  %h = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f32, f32) -> f32
  // CHECK: "simt.libdevice"(%{{.*}}) {fn = "trunc"} : (f32) -> f32
  %t = "simt.libdevice"(%h) {fn = "trunc"} : (f32) -> f32
  // CHECK: "simt.libdevice"(%{{.*}}) {fn = "sqrt"} : (f32) -> f32
  %s = "simt.libdevice"(%t) {fn = "sqrt"} : (f32) -> f32
  // CHECK: "simt.libdevice"(%{{.*}}, %{{.*}}, %{{.*}}) {fn = "fma"} : (f32, f32, f32) -> f32
  %f = "simt.libdevice"(%s, %y, %z) {fn = "fma"} : (f32, f32, f32) -> f32
  return %f : f32
}

// CHECK-LABEL: func.func @libdevice_f64
func.func @libdevice_f64(%x: f64, %y: f64) -> f64 {
  // CHECK: "simt.libdevice"(%{{.*}}, %{{.*}}) {fn = "hypot"} : (f64, f64) -> f64
  %h = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f64, f64) -> f64
  // CHECK: "simt.libdevice"(%{{.*}}) {fn = "tgamma"} : (f64) -> f64
  %g = "simt.libdevice"(%h) {fn = "tgamma"} : (f64) -> f64
  return %g : f64
}
