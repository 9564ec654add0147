package pad

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// TestGatherLayouts: the gather table against the executor for every
// element size, aligned and misaligned slices (the integer fast paths and
// the byte loop), with and without a value.
func TestGatherLayouts(t *testing.T) {
	for _, s := range []Spec{
		{Mode: Constant, Before: []int{0, 2}, After: []int{1, 0}},
		{Mode: Reflect, Before: []int{1, 2}, After: []int{2, 1}},
		{Mode: Wrap, Before: []int{-1, 5}, After: []int{2, 2}},
	} {
		shape := []int{3, 4}
		p, err := NewPlan(shape, s)
		if err != nil {
			t.Fatal(err)
		}
		pe, _ := newExecPlan(shape, s)
		if p.gather == nil {
			t.Fatalf("%v: no gather table", s)
		}
		sameBytes(t, fmt.Sprint(s), p, pe, 12, prod(p.OutShape()))
	}
}

// sameBytes checks that p's RunBytes makes what pe's does (in and out
// elements) at every element size, aligned or not, with no value, a zero
// one, and one whose bytes differ, so that a value's halves cannot trade
// places unseen.
func sameBytes(t *testing.T, name string, p, pe *Plan, in, out int) {
	t.Helper()
	for size := 1; size <= 17; size++ {
		distinct := make([]byte, size)
		for i := range distinct {
			distinct[i] = byte(0xA0 + i)
		}
		for _, off := range []int{0, 1} {
			for _, value := range [][]byte{nil, make([]byte, size), distinct} {
				src := make([]byte, in*size+off)[off:]
				for i := range src {
					src[i] = byte(i*7 + 1)
				}
				got := make([]byte, out*size+off)[off:]
				want := make([]byte, out*size)
				if err := p.RunBytes(got, src, size, value); err != nil {
					t.Fatal(err)
				}
				if err := pe.RunBytes(want, src, size, value); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s, size %d, offset %d, value %x:\n got %x\nwant %x", name, size, off, value, got, want)
				}
			}
		}
	}
}

// TestGatherLimits: run tables are built for small outputs of a few long
// runs, element tables for small outputs of more runs, each of small
// inputs only.
func TestGatherLimits(t *testing.T) {
	for _, c := range []struct {
		shape []int
		s     Spec
		runs  int // the run table's length, or 0 for none
		table bool
	}{
		{[]int{3, 2}, Spec{Before: []int{0, 2}, After: []int{0, 0}}, 0, true},                  // 6 runs of 12 elements
		{[]int{8, 8}, Spec{Before: []int{0, 0}, After: []int{0, 0}}, 1, false},                 // one copy
		{[]int{3, 20}, Spec{Before: []int{1, 2}, After: []int{0, 3}}, 7, false},                // 7 runs of 100 elements
		{[]int{4, 20}, Spec{Before: []int{1, 2}, After: []int{0, 3}}, 0, true},                 // 9 runs of 125 elements
		{[]int{8, 19}, Spec{Before: []int{0, 0}, After: []int{0, 1}}, 0, true},                 // 160 outputs, 16 runs
		{[]int{8, 20}, Spec{Before: []int{0, 0}, After: []int{0, 1}}, 0, false},                // 168 outputs, 16 runs
		{[]int{4093}, Spec{Before: []int{1}, After: []int{2}}, 3, false},                       // 4096 outputs
		{[]int{4094}, Spec{Before: []int{1}, After: []int{2}}, 0, false},                       // 4097 outputs
		{[]int{gatherMaxIn + 1}, Spec{Before: []int{-gatherMaxIn}, After: []int{0}}, 0, false}, // 1 output of a big input
		{[]int{0, 4}, Spec{Before: []int{0, 1}, After: []int{0, 1}}, 0, false},                 // empty output
	} {
		p, err := NewPlan(c.shape, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.runs) != c.runs || (p.gather != nil) != c.table {
			t.Errorf("%v %v: %d runs and table %v, want %d and %v", c.shape, c.s, len(p.runs), p.gather != nil, c.runs, c.table)
		}
	}
}

// TestGatherRuns: the runs of a plan (copies, fills with the value,
// repeats of an input element), and run tables against the executor at
// every element size, aligned or not, with and without a value, through
// RunBytes and Run, and past gatherRunsMaxBytes (by the executor).
func TestGatherRuns(t *testing.T) {
	p, err := NewPlan([]int{2, 30}, Spec{Mode: Edge, Before: []int{0, 3}, After: []int{0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := []gatherRun{{0, 0, 4, true}, {4, 1, 29, false}, {33, 29, 2, true}, {35, 30, 4, true}, {39, 31, 29, false}, {68, 59, 2, true}}
	if !slices.Equal(p.runs, want) {
		t.Errorf("runs %v, want %v", p.runs, want)
	}
	p, err = NewPlan([]int{2, 40}, Spec{Mode: Constant, Before: []int{1, 1}, After: []int{0, 3}})
	if err != nil {
		t.Fatal(err)
	}
	want = []gatherRun{{0, -1, 45, false}, {45, 0, 40, false}, {85, -1, 4, false}, {89, 40, 40, false}, {129, -1, 3, false}}
	if !slices.Equal(p.runs, want) {
		t.Errorf("runs %v, want %v", p.runs, want)
	}
	for _, c := range []struct {
		shape []int
		s     Spec
	}{
		{[]int{2, 30}, Spec{Mode: Edge, Before: []int{0, 3}, After: []int{0, 2}}},
		{[]int{2, 40}, Spec{Mode: Constant, Before: []int{1, 1}, After: []int{0, 3}}},
		{[]int{100}, Spec{Mode: Reflect, Before: []int{2}, After: []int{1}}},
		{[]int{3, 50}, Spec{Mode: Wrap, Before: []int{0, 0}, After: []int{0, 5}}},
		{[]int{4000}, Spec{Mode: Constant, Before: []int{3}, After: []int{93}}}, // 64 KiB of 16-byte elements: the executor
	} {
		p, err := NewPlan(c.shape, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if p.runs == nil {
			t.Fatalf("%v %v: no run table", c.shape, c.s)
		}
		pe, _ := newExecPlan(c.shape, c.s)
		in, out := prod(c.shape), prod(p.OutShape())
		sameBytes(t, fmt.Sprint(c.shape, c.s), p, pe, in, out)
		strs, f32 := make([]string, in), make([]float32, in)
		for i := range strs {
			strs[i], f32[i] = fmt.Sprint(i), float32(i)+0.5
		}
		gs, ws := make([]string, out), make([]string, out)
		gf, wf := make([]float32, out), make([]float32, out)
		for _, err := range []error{Run(p, gs, strs, "v"), Run(pe, ws, strs, "v"), Run(p, gf, f32, 7), Run(pe, wf, f32, 7)} {
			if err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(gs, ws) || !slices.Equal(gf, wf) {
			t.Fatalf("%v %v: Run differs from the executor", c.shape, c.s)
		}
	}
}

// TestWideTablesAgreeWithCopy: the wide tables of every mode agree with
// the copy (shuffleTable.copyAgrees), the aligned kernel's condition; a
// plan whose table did not would silently lose that kernel.
func TestWideTablesAgreeWithCopy(t *testing.T) {
	tables := 0
	for _, mode := range []Mode{Constant, Edge, Reflect, Symmetric, Wrap} {
		for _, inner := range []int{33, 56, 100, 230, 1000} {
			for _, pad := range [][2]int{{1, 1}, {0, 3}, {4, 0}, {8, 8}, {-2, 2}, {2, -3}} {
				if mode != Constant && (pad[0] < 0 || pad[1] < 0) {
					continue
				}
				p, err := newExecPlan([]int{3, 5, inner}, Spec{Mode: mode, Before: []int{0, 1, pad[0]}, After: []int{0, 1, pad[1]}})
				if err != nil {
					t.Fatal(err)
				}
				for si, size := range kernelSizes {
					tab := p.tablesFor(size).wide
					if tab == nil {
						continue
					}
					tables++
					if !tab.copyAgrees {
						t.Errorf("%v of %d by %v, element size %d: the wide table does not agree with the copy", mode, inner, pad, kernelSizes[si])
					}
				}
			}
		}
	}
	if tables == 0 {
		t.Fatal("no plan has a wide table")
	}
	t.Logf("%d wide tables", tables)
}

// TestGathers: outputs of up to gatherAnyMaxOut elements take the table
// whatever the elements; larger ones only elements of at most 8 bytes
// without pointers, as Run and RunBytes choose, and every choice gives the
// executor's output.
func TestGathers(t *testing.T) {
	for _, c := range []struct {
		rows, inner int // [rows, inner] padded to [rows, inner+2]: three runs a row
		size        int
		free        bool
		want        bool
	}{
		{8, 6, 16, true, true},    // 64 elements
		{8, 6, 8, false, true},    // 64 elements
		{6, 9, 16, true, true},    // 66 elements of 16 bytes: two words each
		{10, 9, 16, true, true},   // 110
		{10, 10, 12, true, false}, // 120
		{6, 9, 8, false, false},   // of pointers
		{6, 9, 8, true, true},     //
		{6, 9, 17, true, false},   // wider than two words
		{8, 18, 1, true, true},    // 160 elements
		{8, 18, 12, true, false},  //
	} {
		shape, s := []int{c.rows, c.inner}, Spec{Mode: Edge, Before: []int{0, 1}, After: []int{0, 1}}
		p, err := NewPlan(shape, s)
		if err != nil {
			t.Fatal(err)
		}
		if p.runs != nil {
			t.Fatalf("%v: a run table", p.OutShape())
		}
		if got := p.gathers(c.size, c.free); got != c.want {
			t.Errorf("%v of %d-byte elements (pointer-free %v): gathers %v, want %v", p.OutShape(), c.size, c.free, got, c.want)
		}
		pe, _ := newExecPlan(shape, s)
		src := make([]byte, c.rows*c.inner*c.size)
		for i := range src {
			src[i] = byte(i*7 + 1)
		}
		got, want := make([]byte, c.rows*(c.inner+2)*c.size), make([]byte, c.rows*(c.inner+2)*c.size)
		if err := p.RunBytes(got, src, c.size, nil); err != nil {
			t.Fatal(err)
		}
		if err := pe.RunBytes(want, src, c.size, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%v of %d-byte elements: RunBytes differs from the executor", p.OutShape(), c.size)
		}
	}
	// Run's typed paths: strings (pointers) and complex128 (16 bytes) by
	// the executor, float32 by the table, all as the reference.
	p, err := NewPlan([]int{2, 40}, Spec{Mode: Reflect, Before: []int{0, 2}, After: []int{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if p.gather == nil {
		t.Fatal("no gather table for 135 outputs")
	}
	ref := func(i int) int { // input index of output element i of [3, 45]
		r, c := i/45, i%45
		if r == 2 {
			r = 0
		}
		c -= 2
		if c < 0 {
			c = -c
		} else if c >= 40 {
			c = 2*39 - c
		}
		return r*40 + c
	}
	strs, cplx, f32 := make([]string, 80), make([]complex128, 80), make([]float32, 80)
	for i := range strs {
		strs[i], cplx[i], f32[i] = string(rune('a'+i%26))+string(rune('A'+i/26)), complex(float64(i), -1), float32(i)+0.5
	}
	gs, gc, gf := make([]string, 135), make([]complex128, 135), make([]float32, 135)
	if err := Run(p, gs, strs, "v"); err != nil {
		t.Fatal(err)
	}
	if err := Run(p, gc, cplx, 9i); err != nil {
		t.Fatal(err)
	}
	if err := Run(p, gf, f32, 7); err != nil {
		t.Fatal(err)
	}
	for i := range gs {
		j := ref(i)
		ws, wc, wf := strs[j], cplx[j], f32[j]
		if gs[i] != ws || gc[i] != wc || gf[i] != wf {
			t.Fatalf("element %d: %q %v %v, want %q %v %v", i, gs[i], gc[i], gf[i], ws, wc, wf)
		}
	}
}

// TestDataRows: the rows of the innermost level that hold input, the
// bound on runs that spares NewPlan the index map, saturating past
// gatherRunsMax.
func TestDataRows(t *testing.T) {
	for _, c := range []struct {
		shape []int
		s     Spec
		want  int
	}{
		{[]int{4000}, Spec{Mode: Reflect, Before: []int{3}, After: []int{3}}, 1},
		{[]int{2, 40}, Spec{Before: []int{1, 1}, After: []int{0, 3}}, 2},                   // a pad row of the value
		{[]int{2, 40}, Spec{Mode: Edge, Before: []int{1, 1}, After: []int{2, 3}}, 5},       // pad rows copied
		{[]int{2, 3, 40}, Spec{Before: []int{0, 1, 1}, After: []int{1, 0, 3}}, 6},          // 2 of 3 planes, 3 of 4 rows
		{[]int{16, 250}, Spec{Before: []int{0, 2}, After: []int{0, 4}}, gatherRunsMax + 1}, // saturated
		{[]int{4, 8, 8}, Spec{Before: []int{1, 0, 0}, After: []int{1, 0, 0}}, 1},           // one level: planes of 64 as rows
	} {
		p, err := NewPlan(c.shape, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if got := dataRows(p.levels); got != c.want {
			t.Errorf("%v %v: %d data rows, want %d", c.shape, c.s, got, c.want)
		}
	}
}
