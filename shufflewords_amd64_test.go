//go:build unix && !purego && !noasm

package pad

import (
	"math/rand/v2"
	"testing"
)

// wordCase is one call of the AVX2 shuffle kernel (rowsShuffleDwordsAVX2):
// a shuffle case whose table moves whole 4-byte words, run by its word
// table; the Go version is the byte table's (rowsShuffleGo), so the
// checks cover wordTable too.
type wordCase struct{ shufCase }

func (c *wordCase) asm(ks asmKernels, dst, src []byte) {
	list, run0, run1 := listArgs(c.rowIdx)
	ks.rowsShuffleDwords(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.tab.words.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src, list, run0, run1)
}

// randomWordCase draws a geometry as randomShufCase does and a table of
// words (width and mid multiples of 4 from 32 to 128): word w takes a src
// word near w*mid/width (as padded rows do), or the value.
func randomWordCase(r *rand.Rand, width, mid int) *wordCase {
	c := &wordCase{*randomShufCase(r, width, mid)}
	// The kernel takes a block's pattern words from its own start: the
	// value's pattern repeats every element, and blocks start at
	// multiples of the element size (a multiple of 4 bytes, or of 8 or
	// 16 bytes where the width is).
	p := []int{1, 2, 4}[r.IntN(3)]
	for _, q := range []int{8, 16} {
		if width%q == 0 && r.IntN(2) == 0 {
			p = q
		}
	}
	c.pat = patternOf(randomBytes(r, p))
	W, M := width/4, mid/4
	for {
		t := new(shuffleTable)
		valueEvery := []int{0, 3, 8}[r.IntN(3)] // 0: every word from src
		reversed := r.IntN(4) == 0              // a mirrored row
		for w := range W {
			if valueEvery != 0 && r.IntN(valueEvery) == 0 {
				continue
			}
			j := min(max(w*M/W+r.IntN(5)-2, 0), M-1)
			if reversed {
				j = M - 1 - j
			}
			for k := range 4 {
				t.idx[4*w+k] = byte(4*j + k)
				t.take[(4*w+k)/64] |= 1 << ((4*w + k) % 64)
			}
		}
		if t.words = wordTable(t, width, mid); t.words != nil {
			c.tab = t
			return c
		}
	}
}

// wordKernelsOrSkip returns the first supported level with the AVX2
// shuffle kernel.
func wordKernelsOrSkip(t testing.TB) asmKernels {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsShuffleDwords != nil }, "the CPU has no AVX2: no word shuffle kernel")
}

// TestRowsShuffleDwordsKernel: every width and mid the kernel takes (rows
// of 1 to 4 blocks, each with and without the value), between canaries,
// against the byte table's Go version.
func TestRowsShuffleDwordsKernel(t *testing.T) {
	ks := wordKernelsOrSkip(t)
	r := rand.New(rand.NewPCG(31, 32))
	calls := 0
	forms := map[[2]int32]int{} // by blocks and full
	for width := 32; width <= shuffleMax; width += 4 {
		for mid := 32; mid <= shuffleMax; mid += 4 {
			for range 3 {
				c := randomWordCase(r, width, mid)
				forms[[2]int32{c.tab.words.n, c.tab.words.full}]++
				checkCanaries(t, r, ks, c, byte(width))
				calls++
			}
		}
	}
	if len(forms) != 8 {
		t.Errorf("forms drawn (blocks, full): %v, want 1 to 4 blocks with and without the value", forms)
	}
	t.Logf("%d calls; by blocks and full %v", calls, forms)
}

// TestRowsShuffleDwordsGuard: src and dst against PROT_NONE pages on either
// side: a window or a store one byte beyond the row faults.
func TestRowsShuffleDwordsGuard(t *testing.T) {
	ks := wordKernelsOrSkip(t)
	sizes := []int{32, 36, 60, 64, 68, 96, 100, 116, 124, 128}
	guardSweep(t, ks, rand.New(rand.NewPCG(33, 34)), sizes, func(r *rand.Rand, width, mid int) tableCall {
		return randomWordCase(r, width, mid)
	})
}

func FuzzRowsShuffleDwords(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		ks := wordKernelsOrSkip(t)
		r := rand.New(rand.NewPCG(a, b))
		width, mid := 32+4*r.IntN(25), 32+4*r.IntN(25)
		checkCanaries(t, r, ks, randomWordCase(r, width, mid), byte(a))
	})
}

// TestWordTables: plans of narrow rows of 4, 8 and 16-byte elements at
// least a block wide have word tables, except wrapped rows, whose pads
// take words from the row's other end (more than 8 words apart). The rows
// a word table makes are the byte table's: the kernel tests above.
func TestWordTables(t *testing.T) {
	have := 0
	for _, mode := range []Mode{Constant, Edge, Reflect, Symmetric, Wrap} {
		for _, w := range []int{7, 9, 14, 16, 28} {
			p, err := newExecPlan([]int{3, w, w}, Spec{Mode: mode, Before: []int{0, 1, 1}, After: []int{0, 1, 2}})
			if err != nil {
				t.Fatal(err)
			}
			for _, es := range []int{4, 8, 16} {
				tab := p.tablesFor(es).shuffle
				if tab == nil {
					continue
				}
				if mode != Wrap && w*es >= 32 && tab.words == nil {
					t.Errorf("%v rows of %d %d-byte elements: no word table", mode, w, es)
				}
				if tab.words != nil {
					have++
				}
			}
		}
	}
	if have == 0 {
		t.Fatal("no plan has a word table")
	}
	t.Logf("%d word tables", have)
}
