// The testbed: a GoogleTest program that runs every law on every registered kernel of every kind
// (row kernels, merge kernels, combine operators), with
// RapidCheck generating the cases (fixed seed unless RC_PARAMS says otherwise), prints the first
// counterexample as soon as it is found, shrinks it within a time budget, saves the shrunk case
// as a regression file and replays the saved files of each kernel first.
//
// osvs_add_kernel_test() links a main that calls run_testbed; a program of one's own may call it
// after registering kernels at run time.
//
// Flags (besides GoogleTest's): --osvs-list prints the registered kernels and exits;
// --osvs-replay=FILE replays one regression file and exits 0 when it shows what it expects;
// --osvs-first-failure stops each law at its first failure (OSVS_FIRST_FAILURE=1 does too; by
// default every distinct class of failure a law reports is searched for and shrunk, up to 4).
// Environment: OSVS_REPLAY_DIR (files replayed first; set by the CMake function to the
// adapter's regression folder), OSVS_REGRESSION_DIR (where new failures are written; default
// ./osvs-regressions in the working directory, which ctest sets to the build folder),
// OSVS_SHRINK_SECONDS (shrinking budget per law, default 20).
#pragma once

namespace osvs {

int run_testbed(int argc, char** argv);

}  // namespace osvs
