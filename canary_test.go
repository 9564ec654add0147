package pad

// Canary tests: the grid of grid_test.go with every buffer between 64
// canary bytes before and 64 after it (guarded, kernel_test.go), which must
// keep their values, and the outputs compared exactly: kernels with the Go
// versions, Pads with refPad. They run on every platform and build (purego,
// noasm, arm64 under qemu): where a level of assembly is available its
// kernels are called directly too, and Pad runs at every level the CPU
// supports (Go only in a purego build).
//
// Unlike guard pages, canaries do not see reads, but they see writes on
// both sides at once and take every start alignment with every length: the
// destination starts at offset o (the case's placement offset, 0..63) after
// its leading canary and input i (1, 2: the source, the fill pattern) at
// canaryOffset(o, i, n); as o runs through 0..63 for a length n, so does
// each input's offset, and their relative alignments vary.

import (
	"bytes"
	"testing"
	"unsafe"
)

// canaryOffset is the offset of input i when the destination is at offset
// o and the run length is n.
func canaryOffset(o, i, n int) int { return (5*o + 17*i + n) % gridOffsets }

// canaryPtr points at b's bytes; for an empty b, the pointer guarded's
// slice holds, which is at a canary byte.
func canaryPtr(b []byte) *byte { return unsafe.SliceData(b) }

// TestCanaryKernels runs the grid's calls of every assembly kernel of every
// level the CPU supports between canaries.
func TestCanaryKernels(t *testing.T) {
	if len(asmKernelSets) == 0 {
		t.Skip("no assembly kernels in this build (TestCanaryPad pads at the Go level)")
	}
	g := gridDensityFor(t)
	for _, ks := range asmKernelSets {
		t.Run(ks.level.String(), func(t *testing.T) {
			if !ks.supported {
				t.Skipf("the CPU lacks %v", ks.level)
			}
			var (
				cnt  gridCounter
				cur  *gridCall
				ins  [2][]byte
				ptrs [2]*byte
			)
			defer func() {
				if t.Failed() && cur != nil {
					t.Logf("the failing call: %v %v", ks.level, cur)
				}
			}()
			gridKernelCalls(ks, g, func(c *gridCall) {
				cur = c
				dst, checkDst := guarded(c.dstLen, c.off, c.poison)
				for i := range dst {
					dst[i] = c.poison
				}
				var checks [2]func(*testing.T, string)
				for i, in := range c.in {
					ins[i], checks[i] = guarded(len(in), canaryOffset(c.off, i+1, c.n), byte(i+1)^c.poison)
					copy(ins[i], in)
					ptrs[i] = canaryPtr(ins[i])
				}
				c.call(canaryPtr(dst), ptrs[:len(c.in)])
				checkDst(t, c.kernel+" dst")
				for i, in := range c.in {
					checks[i](t, c.kernel+" input")
					if !bytes.Equal(ins[i], in) {
						t.Fatalf("%v %v: the kernel wrote to input %d", ks.level, c, i)
					}
				}
				if !bytes.Equal(dst, c.want) {
					t.Fatalf("%v %v: %s", ks.level, c, gridFirstDiff(dst, c.want))
				}
				cnt.add(c.kernel, 1)
			})
			t.Logf("%v, %v: %d kernel calls (kernel, K, length, offset, pads, rows): %v", ks.level, g, cnt.total, &cnt)
		})
	}
}

// TestCanaryPad runs the grid's Pads at every kernel level the CPU supports
// with dst and src between canaries.
func TestCanaryPad(t *testing.T) {
	g := gridDensityFor(t)
	levels := gridLevels()
	var (
		cnt   gridCounter
		cur   *gridPad
		level kernelLevel
	)
	defer func() {
		if t.Failed() && cur != nil {
			t.Logf("the failing Pad: %v at level %v", cur, level)
		}
	}()
	gridPadCases(g, func(c *gridPad) {
		cur = c
		p, err := newExecPlan(c.shape(), c.spec())
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		want, in := c.want(t), c.source()
		for _, level = range levels {
			dst, checkDst := guarded(len(want), c.off, byte(c.seed))
			src, checkSrc := guarded(len(in), canaryOffset(c.off, 1, c.mid*c.size), byte(c.seed+1))
			copy(src, in)
			if err := c.run(p, level, dst, src); err != nil {
				t.Fatalf("%v at level %v: %v", c, level, err)
			}
			checkDst(t, "dst")
			checkSrc(t, "src")
			if !bytes.Equal(dst, want) {
				t.Fatalf("%v at level %v: %s", c, level, gridFirstDiff(dst, want))
			}
			if !bytes.Equal(src, in) {
				t.Fatalf("%v at level %v: src changed", c, level)
			}
		}
		cnt.add(c.mode.String(), 1)
	})
	t.Logf("%v: %d Pads (mode, K, length, offset, pads, rows) at each of the levels %v: %v", g, cnt.total, levels, &cnt)
}
