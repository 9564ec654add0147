//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests of the kernel of shuffle256 tables (KERNELS.md item 19) against its
// Go version: every width from 129 to 384 and mid from 64 to 256 with
// random tables, canaries, gaps and row lists; the same against PROT_NONE
// pages; and plans whose rows take it, against the reference.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// shuf256Case is one call of the kernel.
type shuf256Case struct {
	shufCase
	tab256 *shuffle256Table
}

func (c *shuf256Case) asm(ks asmKernels, dst, src []byte) {
	list, run0, run1 := listArgs(c.rowIdx)
	ks.rowsShuffle256(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab256.bytes(), c.pl.n, c.pl.dst, c.pl.src, list, run0, run1)
}

func (c *shuf256Case) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		rowsShuffle256Go(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab256, c.rowIdx)
	}
}

// randomShuf256Case draws a table (indices into each chunk's windows) and
// a geometry as randomShufCase does.
func randomShuf256Case(r *rand.Rand, width, mid int) *shuf256Case {
	c := &shuf256Case{shufCase: *randomShufCase(r, 64, 64)}
	c.width, c.mid = width, mid
	c.tab256 = new(shuffle256Table)
	for k := range (width + 63) / 64 {
		for i := range 64 {
			c.tab256.idx[k][i] = byte(r.IntN(128))
		}
	}
	c.dstStride = width + []int{0, 0, 1, 5, 64}[r.IntN(5)]
	if c.srcStride != 0 {
		c.srcStride = mid + []int{0, 3, 64}[r.IntN(3)]
	}
	c.pl.dst = (c.rows-1)*c.dstStride + width + r.IntN(9)
	c.pl.src = (c.srcRows()-1)*c.srcStride + mid + r.IntN(9)
	return c
}

func shuffle256KernelOrSkip(t testing.TB) asmKernels {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsShuffle256 != nil }, "the CPU has no AVX-512 VBMI: no rowsShuffle256")
}

func TestRowsShuffle256Kernel(t *testing.T) {
	ks := shuffle256KernelOrSkip(t)
	r := rand.New(rand.NewPCG(25, 6))
	calls := 0
	for width := shuffleMax + 1; width <= shuffle256Max; width++ {
		for mid := 64; mid <= 256; mid++ {
			checkCanaries(t, r, ks, randomShuf256Case(r, width, mid), byte(width))
			calls++
		}
	}
	t.Logf("%d calls", calls)
}

// TestRowsShuffle256Guard: src and dst against PROT_NONE pages; the
// kernel reads and writes only its rows.
func TestRowsShuffle256Guard(t *testing.T) {
	ks := shuffle256KernelOrSkip(t)
	sizes := []int{64, 65, 100, 127, 128, 129, 150, 191, 192, 193, 200, 255, 256, 257, 320, 321, 383, 384}
	guardSweep(t, ks, rand.New(rand.NewPCG(25, 7)), sizes, func(r *rand.Rand, width, mid int) tableCall {
		if !shuffle256Fits(width, mid) {
			return nil
		}
		return randomShuf256Case(r, width, mid)
	})
}

// TestShuffle256Table: the tables of every row form of rows of 129 to 384
// bytes give the rows the executor's Go path makes.
func TestShuffle256Table(t *testing.T) {
	for _, c := range []struct {
		size, w, p int
		mode       Mode
	}{
		{4, 28, 3, Edge}, {4, 28, 3, Reflect}, {4, 28, 3, Wrap}, {4, 30, 4, Symmetric},
		{8, 14, 3, Edge}, {8, 14, 2, Reflect}, {8, 9, 8, Wrap}, {8, 16, 8, Edge},
		{2, 60, 4, Reflect}, {1, 100, 50, Reflect}, {1, 128, 64, Edge}, {1, 64, 40, Wrap},
		{4, 56, 3, Reflect}, {4, 56, 3, Wrap}, {4, 56, 16, Edge}, {4, 60, 2, Symmetric},
		{8, 28, 7, Reflect}, {8, 32, 1, Wrap}, {2, 100, 20, Edge}, {1, 250, 60, Reflect},
	} {
		name := fmt.Sprintf("size=%d/w=%d/%v%d", c.size, c.w, c.mode, c.p)
		t.Run(name, func(t *testing.T) {
			p, err := NewPlan([]int{5, c.w}, Spec{Mode: c.mode, Before: []int{0, c.p}, After: []int{0, c.p}})
			if err != nil {
				t.Fatal(err)
			}
			lv := &p.levels[len(p.levels)-1]
			_, _, _, _, tab := rowTables(lv, p.strides[len(p.levels)-1], c.size)
			width, mid := (c.w+2*c.p)*c.size, c.w*c.size
			if tab == nil {
				t.Fatalf("no table for rows of %d bytes from %d", width, mid)
			}
			src := randomBytes(rand.New(rand.NewPCG(1, 2)), 5*mid)
			got := make([]byte, 5*width)
			rowsShuffle256Go(got, src, 5, width, mid, width, mid, tab, nil)
			want := make([]byte, 5*width)
			if err := p.RunBytes(want, src, c.size, make([]byte, c.size)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("rows by the table differ from the plan's:\n got %x\nwant %x", got, want)
			}
		})
	}
}

// TestShuffle256Plans: plans whose planes have rows of 129 to 384 bytes
// from 64 to 256 make them by the kernel, a plane's rows in one pass, and
// match the reference; rows beyond its reach do not take it.
func TestShuffle256Plans(t *testing.T) {
	ks := kernelsInUse()
	if ks == nil || ks.rowsShuffle256 == nil {
		t.Skip("the level in use has no rowsShuffle256 (AVX-512 VBMI)")
	}
	calls := 0
	k := ks.rowsShuffle256
	setForTest(t, &ks.rowsShuffle256, func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[384]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int) {
		calls++
		k(dst, src, rows, dstStride, srcStride, width, mid, tab, planes, dstPlane, srcPlane, rowIdx, run0, run1)
	})
	r := rand.New(rand.NewPCG(25, 8))
	for _, c := range []struct {
		size  int
		shape []int
		mode  Mode
		pad   int
		takes bool
	}{
		{4, []int{64, 28, 28}, Wrap, 3, true},
		{4, []int{64, 28, 28}, Reflect, 3, true},
		{8, []int{50, 14, 14}, Edge, 3, true},
		{8, []int{50, 14, 14}, Symmetric, 2, true},
		{2, []int{16, 30, 60}, Edge, 5, true},
		{1, []int{4, 50, 100}, Reflect, 40, true},
		{4, []int{64, 28, 28}, Constant, 3, false}, // the value: the constant kernels
		{4, []int{16, 28, 56}, Edge, 3, true},
		{4, []int{16, 28, 56}, Wrap, 17, false}, // a pad of more than 64 bytes
		{4, []int{16, 28, 70}, Edge, 3, false},  // 280 bytes in
		{4, []int{64, 28, 28}, Edge, 1, false},  // 120 bytes out: the shuffle kernel
	} {
		name := fmt.Sprintf("%d/%v/%v%d", c.size, c.shape, c.mode, c.pad)
		spec := Spec{Mode: c.mode, Before: []int{0, c.pad, c.pad}, After: []int{0, c.pad, c.pad}}
		p, err := newExecPlan(c.shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, c.size*prod(c.shape))
		want, _, err := refPad(in, c.size, c.shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		calls = 0
		dst := make([]byte, len(want))
		if err := p.RunBytes(dst, in, c.size, nil); err != nil || !bytes.Equal(dst, want) {
			t.Errorf("%s: output differs from the reference (%v)", name, err)
		}
		if (calls > 0) != c.takes {
			t.Errorf("%s: %d rowsShuffle256 calls, want some: %v", name, calls, c.takes)
		}
	}
}

// BenchmarkRowsShuffle256: the kernel against its Go version on the rows
// of float32 28x28 planes wrapped by 3 (136 bytes from 112) and float64
// 14x14 planes edge-padded by 3 (160 from 112), 64 planes of each, a plane
// a call with its row list as the executor passes it.
func BenchmarkRowsShuffle256(b *testing.B) {
	ks := shuffle256KernelOrSkip(b)
	for _, g := range []struct {
		name       string
		size, w, p int
		mode       Mode
	}{{"f32_28_wrap3", 4, 28, 3, Wrap}, {"f64_14_edge3", 8, 14, 3, Edge}, {"f32_56_reflect3", 4, 56, 3, Reflect}} {
		p, err := NewPlan([]int{5, g.w}, Spec{Mode: g.mode, Before: []int{0, g.p}, After: []int{0, g.p}})
		if err != nil {
			b.Fatal(err)
		}
		lv := &p.levels[len(p.levels)-1]
		_, _, _, _, tab := rowTables(lv, p.strides[len(p.levels)-1], g.size)
		width, mid, rows, planes := (g.w+2*g.p)*g.size, g.w*g.size, g.w+2*g.p, 64
		idx := make([]int32, rows)
		for t := range idx {
			idx[t] = int32(min(max(t-g.p, 0), g.w-1)) // edge rows; the kernel's cost is the same for any list
		}
		l := newRowList(idx)
		src, dst := benchBytes(planes*g.w*mid), benchBytes(planes*rows*width)
		b.Run(g.name+"/impl=asm", func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				ks.rowsShuffle256(&dst[0], &src[0], rows, width, mid, width, mid, tab.bytes(), planes, rows*width, g.w*mid, &idx[0], l.run0, l.run1)
			}
		})
		b.Run(g.name+"/impl=go", func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				for q := range planes {
					rowsShuffle256Go(dst[q*rows*width:], src[q*g.w*mid:], rows, width, mid, width, mid, tab, idx)
				}
			}
		})
	}
}
