import Benchmark

/// Cold start from the file cache in a fresh process (added once FileCacheAdapter lands).
func registerColdStartBenchmarks() {}
