package pad

import (
	"bytes"
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
		out := prod(p.OutShape())
		for _, size := range []int{1, 2, 3, 4, 8, 12, 16} {
			for _, off := range []int{0, 1} {
				for _, value := range [][]byte{nil, bytes.Repeat([]byte{0xA5}, size)} {
					src := make([]byte, 12*size+off)[off:]
					for i := range src {
						src[i] = byte(i + 1)
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
						t.Errorf("%v, size %d, offset %d, value %x:\n got %x\nwant %x", s, size, off, value, got, want)
					}
				}
			}
		}
	}
}

// TestGatherLimits: tables are built for small outputs of small inputs only.
func TestGatherLimits(t *testing.T) {
	for _, c := range []struct {
		shape []int
		s     Spec
		table bool
	}{
		{[]int{3, 2}, Spec{Before: []int{0, 2}, After: []int{0, 0}}, true},
		{[]int{8, 8}, Spec{Before: []int{0, 0}, After: []int{0, 0}}, true},
		{[]int{8, 8}, Spec{Before: []int{0, 0}, After: []int{0, 1}}, false},                 // 72 outputs
		{[]int{gatherMaxIn + 1}, Spec{Before: []int{-gatherMaxIn}, After: []int{0}}, false}, // 1 output of a big input
		{[]int{0, 4}, Spec{Before: []int{0, 1}, After: []int{0, 1}}, false},                 // empty output
	} {
		p, err := NewPlan(c.shape, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if (p.gather != nil) != c.table {
			t.Errorf("%v %v: gather table %v, want one: %v", c.shape, c.s, p.gather, c.table)
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
