"""oxide's command lines: oxide-opt (an mlir-opt for oxide's dialects and passes) and oxide."""
