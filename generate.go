package pad

// The assembly is generated: asm/ (an avo program, its own module) writes
// the amd64 kernels and gen/ (a small Plan 9 text emitter, its own module)
// the arm64 ones. CI regenerates both and fails on any difference.

//go:generate sh -c "cd asm && go run . -out ../pad_amd64.s -stubs ../pad_amd64_stubs.go -pkg pad"
//go:generate sh -c "cd gen && go run . -out ../pad_arm64.s -stubs ../pad_arm64_stubs.go"
