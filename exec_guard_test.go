//go:build unix && !purego && !noasm

package pad

import (
	"math/rand/v2"
	"testing"
)

// TestAcrossRuns runs random rank-4 plans of small cubes that go across
// at every level in use, with dst and src against guard pages, against
// the reference (the kernels take blocks dstStep apart there).
func TestAcrossRuns(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(133, 134))
	runRandomPlans(t, r, levels, 300, 3, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		shape := []int{1 + r.IntN(32), 1 + r.IntN(3), 1 + r.IntN(10), 1 + r.IntN(24)} // at most 737 KiB out
		mode := Mode(r.IntN(int(Symmetric) + 1))
		spec := Spec{Mode: mode, Before: make([]int, 4), After: make([]int, 4)}
		for a := 1; a < 4; a++ {
			pad := func() int {
				if mode == Constant {
					return r.IntN(4)
				}
				return r.IntN(min(shape[a], 3))
			}
			spec.Before[a], spec.After[a] = pad(), pad()
		}
		var value []byte
		if mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}, goesAcross, "go across")
}

// goesAcross reports whether the top level of p, at element size es,
// passes its sub-tensors across (the executor's rule where the kernels
// make neither the cubes nor the planes below in one call).
func goesAcross(p *Plan, es int) bool {
	if len(p.levels) < 4 {
		return false
	}
	per := min(acrossBytes/max(p.levels[0].blk*es, 1), p.levels[0].outLen)
	x := executor[typedKernels[int32]]{levels: p.levels, strides: p.strides}
	return per > 1 && x.acrossPays(1, per)
}
