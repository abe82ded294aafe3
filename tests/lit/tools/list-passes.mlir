// RUN: %oxide-opt --list-passes | FileCheck %s
// CHECK: oxide passes
// CHECK: oxide-verify {{ *}}Run the Python verifiers of all oxide ops
