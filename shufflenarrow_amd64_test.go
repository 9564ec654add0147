//go:build unix && !purego && !noasm

package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// narrowCase is one call of the AVX2 kernel of narrow rows
// (rowsShuffleNarrowAVX2): a shuffle case run by its narrow table; the Go
// version is the byte table's (rowsShuffleGo), so the checks cover
// narrowTable too.
type narrowCase struct{ shufCase }

func (c *narrowCase) asm(ks asmKernels, dst, src []byte) {
	list, run0, run1 := listArgs(c.rowIdx)
	ks.rowsShuffleNarrow(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.tab.narrow.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src, list, run0, run1)
}

// narrowFits reports whether narrowTable takes rows of width bytes from
// mid bytes (at an element size of 1).
func narrowFits(width, mid int) bool {
	return narrowTable(new(shuffleTable), width, mid, 1) != nil
}

// randomNarrowCase draws a geometry and a table as randomShufCase does
// (any output byte from any input byte, or the value) for rows that
// narrowTable takes, and a value of an element size that divides the width
// (at most 8 bytes for rows of at most 16).
func randomNarrowCase(r *rand.Rand, width, mid int) *narrowCase {
	c := &narrowCase{*randomShufCase(r, width, mid)}
	var sizes []int
	for _, s := range []int{1, 2, 4, 8, 16} {
		if width%s == 0 && (s <= 8 || width > 16) {
			sizes = append(sizes, s)
		}
	}
	size := sizes[r.IntN(len(sizes))]
	c.pat = patternOf(randomBytes(r, size))
	c.tab.words = nil
	if c.tab.narrow = narrowTable(c.tab, width, mid, size); c.tab.narrow == nil {
		panic("randomNarrowCase: no narrow table")
	}
	return c
}

// randomNarrowWordCase is randomNarrowCase for rows that go in whole
// 4-byte words (width and mid multiples of 4): each output word is a
// random input word, or the value in some draws; narrowTable gives them
// the word shapes (D16O16, D16O32) where their pieces are 16 bytes.
func randomNarrowWordCase(r *rand.Rand, width, mid int) *narrowCase {
	c := randomNarrowCase(r, width, mid)
	c.tab.idx, c.tab.take = [128]byte{}, [2]uint64{}
	valueEvery := []int{0, 2, 8}[r.IntN(3)] // 0: every word from src
	for w := 0; w < width/4; w++ {
		if valueEvery != 0 && r.IntN(valueEvery) == 0 {
			continue
		}
		j := r.IntN(mid / 4)
		for k := range 4 {
			c.tab.idx[4*w+k] = byte(4*j + k)
			c.tab.take[(4*w+k)/64] |= 1 << ((4*w + k) % 64)
		}
	}
	var sizes []int
	for _, s := range []int{4, 8, 16} {
		if width%s == 0 && (s <= 8 || width > 16) {
			sizes = append(sizes, s)
		}
	}
	size := sizes[r.IntN(len(sizes))]
	c.pat = patternOf(randomBytes(r, size))
	if c.tab.narrow = narrowTable(c.tab, width, mid, size); c.tab.narrow == nil {
		panic("randomNarrowWordCase: no narrow table")
	}
	return c
}

// randomNarrowAnyCase draws a word case (randomNarrowWordCase) for half of
// the geometries that allow one, else a byte case.
func randomNarrowAnyCase(r *rand.Rand, width, mid int) *narrowCase {
	if width%4 == 0 && mid%4 == 0 && r.IntN(2) == 0 {
		return randomNarrowWordCase(r, width, mid)
	}
	return randomNarrowCase(r, width, mid)
}

// narrowKernelsOrSkip returns the first supported level with the kernel of
// narrow rows.
func narrowKernelsOrSkip(t testing.TB) asmKernels {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsShuffleNarrow != nil }, "the CPU has no AVX2: no narrow shuffle kernel")
}

// TestRowsShuffleNarrowKernel: every width and mid the kernel takes (all
// ten shapes, with and without the value), between canaries, against the
// byte table's Go version.
func TestRowsShuffleNarrowKernel(t *testing.T) {
	ks := narrowKernelsOrSkip(t)
	r := rand.New(rand.NewPCG(71, 72))
	calls := 0
	shapes := map[[2]int32]int{} // by shape and full
	for width := 1; width <= 70; width++ {
		for mid := 1; mid <= 40; mid++ {
			if !narrowFits(width, mid) {
				continue
			}
			for i := range 6 { // 3 byte cases, 3 word cases where the rows allow
				c := randomNarrowCase(r, width, mid)
				if i >= 3 {
					if width%4 != 0 || mid%4 != 0 {
						break
					}
					c = randomNarrowWordCase(r, width, mid)
				}
				shapes[[2]int32{c.tab.narrow.shape, c.tab.narrow.full}]++
				checkCanaries(t, r, ks, c, byte(width))
				calls++
			}
		}
	}
	if len(shapes) != 20 {
		t.Errorf("shapes drawn (shape, full): %v, want all ten with and without the value", shapes)
	}
	t.Logf("%d calls; by shape and full %v", calls, shapes)
}

// TestRowsShuffleNarrowGuard: src and dst against PROT_NONE pages on either
// side: a piece or a store one byte beyond the row faults.
func TestRowsShuffleNarrowGuard(t *testing.T) {
	ks := narrowKernelsOrSkip(t)
	sizes := []int{4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64}
	calls := guardSweep(t, ks, rand.New(rand.NewPCG(73, 74)), sizes, func(r *rand.Rand, width, mid int) tableCall {
		if !narrowFits(width, mid) {
			return nil
		}
		return randomNarrowAnyCase(r, width, mid)
	})
	if calls < 200 {
		t.Fatalf("%d guarded calls", calls)
	}
}

func FuzzRowsShuffleNarrow(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		ks := narrowKernelsOrSkip(t)
		r := rand.New(rand.NewPCG(a, b))
		width, mid := 8+r.IntN(57), 4+r.IntN(29)
		if !narrowFits(width, mid) {
			t.Skip()
		}
		checkCanaries(t, r, ks, randomNarrowAnyCase(r, width, mid), byte(a))
	})
}

// TestNarrowTables: the rows of small planes (uint8, int16, float32) in
// every mode have a narrow table where their bytes fit the kernel and no
// word table makes them (with both indexes of a byte of the value
// clear, as C16O32 rows need); and at the AVX2 level a plan of them calls the
// kernel once per batch of planes (rows by their list: one pass a plane)
// and matches the reference.
func TestNarrowTables(t *testing.T) {
	have := 0
	for _, mode := range []Mode{Constant, Edge, Reflect, Symmetric, Wrap} {
		for _, w := range []int{4, 7, 9, 14, 16, 28} {
			p, err := newExecPlan([]int{3, w, w}, Spec{Mode: mode, Before: []int{0, 1, 1}, After: []int{0, 1, 2}})
			if err != nil {
				t.Fatal(err)
			}
			for _, es := range []int{1, 2, 4} {
				tab := p.tablesFor(es).shuffle
				if tab == nil {
					continue
				}
				width, mid := (w+3)*es, w*es
				if tab.words == nil && narrowFits(width, mid) && tab.narrow == nil {
					t.Errorf("%v rows of %d %d-byte elements: no narrow table", mode, w, es)
				}
				if n := tab.narrow; n != nil {
					have++
					checkNarrowValueBytes(t, n)
				}
			}
		}
	}
	if have == 0 {
		t.Fatal("no plan has a narrow table")
	}
	t.Logf("%d narrow tables", have)

	ks := kernelsAt(levelAVX2)
	if ks == nil || ks.rowsShuffleNarrow == nil {
		t.Skip("no AVX2 level: no narrow shuffle kernel")
	}
	calls := recordNarrowCalls(t, ks)
	r := rand.New(rand.NewPCG(75, 76))
	for _, g := range []struct {
		shape []int
		mode  Mode
		pad   int
		size  int
		want  int32 // the rows' shape, or -1
	}{
		{[]int{1, 64, 28, 28}, Reflect, 3, 1, -1},
		{[]int{1, 64, 7, 7}, Edge, 2, 4, -1},
		{[]int{1, 64, 12, 12}, Wrap, 1, 1, -1},
		{[]int{1, 64, 14, 14}, Wrap, 3, 2, -1},         // wrapped: no blocks table (edge and mirrored int16 rows of 40 bytes take one)
		{[]int{1, 32, 30, 1}, Edge, 3, 8, narrowC8O32}, // 8 bytes in, 56 out
		{[]int{1, 32, 30, 1}, Edge, 6, 4, narrowC4O32}, // 4 bytes in, 52 out
		{[]int{1, 8, 226, 3}, Edge, 4, 2, narrowC4O16}, // 6 bytes in, 22 out
	} {
		spec := Spec{Mode: g.mode, Before: []int{0, 0, g.pad, g.pad}, After: []int{0, 0, g.pad, g.pad}}
		p, err := newExecPlan(g.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, prod(g.shape)*g.size)
		want, _, _ := refPad(in, g.size, g.shape, spec, nil)
		dst := make([]byte, len(want))
		*calls = nil
		withLevel(levelAVX2, func() { err = p.RunBytes(dst, in, g.size, nil) })
		if err != nil || !bytes.Equal(dst, want) {
			t.Fatalf("%v %v at AVX2: output differs from the reference (%v)", g.shape, spec, err)
		}
		if len(*calls) == 0 {
			t.Errorf("%v %v at AVX2, %d-byte elements: the narrow shuffle kernel was not called", g.shape, spec, g.size)
		}
		if n := p.tablesFor(g.size).shuffle.narrow; g.want >= 0 && n.shape != g.want {
			t.Errorf("%v %v, %d-byte elements: narrow shape %d, want %d", g.shape, spec, g.size, n.shape, g.want)
		}
	}
}

// checkNarrowValueBytes checks that a table of 16-byte pieces gives 0 from
// both shuffles where a byte takes the value (bit 7 of m clear): the
// kernel's C16O32 rows OR the value in there.
func checkNarrowValueBytes(t *testing.T, n *narrowShuffle) {
	t.Helper()
	if n.shape != narrowC16O16 && n.shape != narrowC16O32 {
		return
	}
	for i := range n.m {
		for k, m := range n.m[i] {
			if m&0x80 == 0 && (n.a[i][k]&0x80 == 0 || n.b[i][k]&0x80 == 0) {
				t.Fatalf("shape %d block %d byte %d takes the value, but its indexes are %#x and %#x", n.shape, i, k, n.a[i][k], n.b[i][k])
			}
		}
	}
}
