// Every malformed pipeline is a located error (column in the pipeline text), exit status 1.
// RUN: not %oxide-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: <pass-pipeline>:1:16: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: |
// UNKNOWN-NEXT: 1 | builtin.module(no-such-pass)
// UNKNOWN-NEXT: |                ^

// RUN: not %oxide-opt %s --pass-pipeline='builtin.module(cse,gpu.module(oxide-verify))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: <pass-pipeline>:1:31: error: oxide pass 'oxide-verify' runs on builtin.module and cannot be nested under 'gpu.module'

// RUN: not %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify{strict=1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: <pass-pipeline>:1:29: error: 'oxide-verify' has no option 'strict' (its options: none)

// RUN: not %oxide-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=many})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM-OPTION
// UPSTREAM-OPTION: <pass-pipeline>:1:29: error: invalid options for 'canonicalize': for the --max-iterations option: 'many' value invalid

// RUN: not %oxide-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// UNCLOSED: <pass-pipeline>:1:19: error: expected ',' or ')', found the end of the pipeline

// RUN: not %oxide-opt %s --pass-pipeline='cse,,canonicalize' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: <pass-pipeline>:1:5: error: expected a pass or anchor name, found ','

// RUN: not %oxide-opt %s --pass-pipeline='cse{a=1' 2>&1 | FileCheck %s --check-prefix=BRACE
// BRACE: <pass-pipeline>:1:4: error: unterminated '{' in pass options

// RUN: not %oxide-opt %s --pass-pipeline='gpu.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=NESTED-UNKNOWN
// NESTED-UNKNOWN: <pass-pipeline>:1:12: error: 'no-such-pass' does not refer to a registered pass or pass pipeline

func.func @f() {
  return
}
