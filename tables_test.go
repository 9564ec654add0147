package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestTablesBuiltOnce: goroutines that run a new plan at once, at every
// element size, build its tables concurrently (the race detector checks
// the publication) and all get the reference's output; afterwards each
// size has one set of tables, the one every run uses.
func TestTablesBuiltOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	shape := []int{2, 5, 14, 14}
	for _, s := range []Spec{
		{Mode: Constant, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}},
		{Mode: Reflect, Before: []int{0, 0, 2, 1}, After: []int{0, 0, 1, 2}},
		{Mode: Edge, Before: []int{0, 1, 3, 0}, After: []int{0, 0, 0, 3}},
	} {
		p, err := newExecPlan(shape, s, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		type job struct{ in, want []byte }
		jobs := map[int]job{}
		for _, es := range kernelSizes {
			in := randomBytes(r, prod(shape)*es)
			want, _, err := refPad(in, es, shape, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			jobs[es] = job{in, want}
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			wg.Go(func() {
				for i := range kernelSizes {
					es := kernelSizes[(g+i)%len(kernelSizes)]
					j := jobs[es]
					dst := make([]byte, len(j.want))
					if err := p.RunBytes(dst, j.in, es, nil); err != nil || !bytes.Equal(dst, j.want) {
						errs <- fmt.Sprintf("%v, %d-byte elements: wrong output (%v)", s, es, err)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		for _, es := range kernelSizes {
			if p.tablesFor(es) != p.tables[sizeIndex(es)].Load() {
				t.Errorf("%v, %d-byte elements: tablesFor does not return the stored tables", s, es)
			}
		}
	}
}

// TestRowList: a plane's row list and its longest run of consecutive input
// rows (the first of the longest), which the shuffle kernels step through
// without reading the list.
func TestRowList(t *testing.T) {
	for _, c := range []struct {
		idx        []int32
		max        int
		run0, run1 int
	}{
		{[]int32{0}, 0, 0, 1},
		{[]int32{0, 0, 1, 2, 3, 3}, 3, 1, 5},          // edge by 1
		{[]int32{2, 1, 0, 1, 2, 3, 4, 3, 2}, 4, 2, 7}, // reflect by 2
		{[]int32{3, 3, 3}, 3, 0, 1},                   // one input row
		{[]int32{0, 1, 5, 6, 7, 2, 3}, 7, 2, 5},
		{[]int32{4, 5, 0, 1}, 5, 0, 2}, // two runs as long: the first
	} {
		l := newRowList(c.idx)
		if l.max != c.max || l.run0 != c.run0 || l.run1 != c.run1 {
			t.Errorf("%v: max %d run %d-%d, want %d run %d-%d", c.idx, l.max, l.run0, l.run1, c.max, c.run0, c.run1)
		}
	}
}

// TestPeriodicTablesAtSecondRun: a plan's first run at an element size
// builds its row tables only, its second run the lines and expand tables
// too, and the runs after that build nothing and allocate nothing; every
// run's output is the reference's.
func TestPeriodicTablesAtSecondRun(t *testing.T) {
	setForTest(t, &periodicAtFirstRun, false)
	setForTest(t, &linesNarrowRows, true) // the narrow rows' lines tables too, on any CPU
	r := rand.New(rand.NewPCG(12, 2))
	for _, c := range []struct {
		shape       []int
		spec        Spec
		size        int
		wide        bool // row tables: wide, else shuffle
		lines, expd bool // the periodic tables it has
	}{
		{[]int{1, 8, 112, 112}, Spec{Mode: Reflect, Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}}, 1, false, true, false},
		{[]int{3, 224, 224}, Spec{Mode: Reflect, Before: []int{0, 3, 3}, After: []int{0, 3, 3}}, 1, true, true, false},
		{[]int{1, 3, 100, 100}, Spec{Mode: Edge, Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}}, 2, true, true, false},
		{[]int{1, 8, 56, 56}, Spec{Mode: Constant, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}, 4, true, false, true},
		// Wide rows past the core's cache (1.9 MB of output): no lines.
		{[]int{3, 3, 224, 224}, Spec{Mode: Reflect, Before: []int{0, 0, 3, 3}, After: []int{0, 0, 3, 3}}, 4, true, false, false},
	} {
		p, err := newExecPlan(c.shape, c.spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, prod(c.shape)*c.size)
		want, _, err := refPad(in, c.size, c.shape, c.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(want))
		run := func(i int) *sizeTables {
			clear(dst)
			if err := p.RunBytes(dst, in, c.size, nil); err != nil || !bytes.Equal(dst, want) {
				t.Fatalf("%v %v, run %d: wrong output (%v)", c.shape, c.spec, i, err)
			}
			return p.tables[sizeIndex(c.size)].Load()
		}
		first := run(1)
		if first.periodic || first.lines != nil || first.expand != nil || (first.wide != nil) != c.wide || (first.shuffle != nil) == c.wide {
			t.Errorf("%v %v, first run: tables %+v, want row tables only", c.shape, c.spec, *first)
		}
		second := run(2)
		if !second.periodic || (second.lines != nil) != c.lines || (second.expand != nil) != c.expd ||
			second.wide != first.wide || second.shuffle != first.shuffle {
			t.Errorf("%v %v, second run: tables %+v, want the first run's row tables, lines %v, expand %v", c.shape, c.spec, *second, c.lines, c.expd)
		}
		if third := run(3); third != second {
			t.Errorf("%v %v: the third run built its tables again", c.shape, c.spec)
		}
		if n := testing.AllocsPerRun(10, func() { p.RunBytes(dst, in, c.size, nil) }); n != 0 {
			t.Errorf("%v %v: %v allocations a run after the second", c.shape, c.spec, n)
		}
	}
}

// TestRowsBeatWide checks which rows leave the wide kernels where
// wideInCache is off: rows of up to 1 KiB of elements the rows kernels
// take, mirrored rows of wider elements only where the ends kernel makes
// them.
func TestRowsBeatWide(t *testing.T) {
	for _, c := range []struct {
		shape  []int
		mode   Mode
		before []int
		size   int
		want   bool
	}{
		{[]int{64, 56, 56}, Reflect, []int{0, 4, 4}, 4, false},    // 16-byte mirrored pads: no ends table
		{[]int{64, 56, 56}, Reflect, []int{0, 3, 3}, 4, true},     // 12-byte ones: the ends kernel
		{[]int{64, 56, 56}, Symmetric, []int{0, 4, 4}, 4, true},   // symmetric reads s[0:16]: ends
		{[]int{32, 112, 112}, Reflect, []int{0, 16, 16}, 1, true}, // bytes: rowsMirror1
		{[]int{64, 56, 56}, Constant, []int{0, 1, 1}, 4, true},
		{[]int{64, 56, 56}, Wrap, []int{0, 3, 3}, 4, true},
		{[]int{64, 56, 56}, Edge, []int{0, 12, 12}, 4, true},
		{[]int{8, 300, 300}, Edge, []int{0, 1, 1}, 4, false}, // 1208-byte rows
		{[]int{224, 224, 3}, Edge, []int{2, 2, 0}, 4, false}, // 12-byte pixels
	} {
		spec := Spec{Mode: c.mode, Before: c.before, After: c.before}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		lv := &p.levels[len(p.levels)-1]
		width := lv.outLen * lv.blk * c.size
		if got := rowsBeatWide(&lv.row, width, c.size, p.tablesFor(c.size).ends); got != c.want {
			t.Errorf("%v %v by %v, size %d (rows of %d bytes): rowsBeatWide %v, want %v", c.shape, c.mode, c.before, c.size, width, got, c.want)
		}
	}
}

// TestLinesEndsWhole checks which planes of wide rows keep the lines
// tables where wideInCache is off (the rows take the ends kernel): not
// rows of up to linesEndsMaxWidth bytes of elements of 4 bytes or more.
func TestLinesEndsWhole(t *testing.T) {
	edge2 := Spec{Mode: Edge, Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}}
	for _, c := range []struct {
		shape     []int
		size      int
		wideCache bool
		lines     bool
	}{
		{[]int{1, 3, 100, 100}, 4, false, false}, // 416-byte rows: the ends kernel, whole
		{[]int{1, 3, 100, 100}, 2, false, true},  // int16
		{[]int{1, 2, 200, 200}, 4, false, true},  // 816-byte rows
		{[]int{1, 3, 100, 100}, 4, true, true},   // the wide kernels, the lines kernel for the middles
	} {
		withValue(&wideInCache, c.wideCache, func() {
			p, err := newExecPlan(c.shape, edge2, Workers(1))
			if err != nil {
				t.Fatal(err)
			}
			in := randomBytes(rand.New(rand.NewPCG(13, 3)), prod(c.shape)*c.size)
			want, _, _ := refPad(in, c.size, c.shape, edge2, nil)
			dst := make([]byte, len(want))
			for run := range 2 { // the second run builds the lines tables
				if err := p.RunBytes(dst, in, c.size, nil); err != nil || !bytes.Equal(dst, want) {
					t.Fatalf("%v size %d, run %d: wrong output (%v)", c.shape, c.size, run, err)
				}
			}
			tb := p.tables[sizeIndex(c.size)].Load()
			if (tb.lines != nil) != c.lines {
				t.Errorf("%v size %d, wideInCache %v: lines tables %v, want %v", c.shape, c.size, c.wideCache, tb.lines != nil, c.lines)
			}
		})
	}
}

// TestPiecesOf checks the pieces tables of rows of units (piecesOf): the
// mid, then a piece per unit of an edge pad or a mirrored run; none for
// units the rows kernels take, for wrapped rows (one forward run a side:
// rowsWrap), or for edge pads of more than edgePiecesMax units.
func TestPiecesOf(t *testing.T) {
	for _, c := range []struct {
		shape         []int
		mode          Mode
		before, after int
		size          int
		want          []int32 // nil: no table
	}{
		{[]int{5, 2, 38}, Reflect, 1, 1, 1, []int32{38, 0, 76, 0, 38, 38, 114, 0, 38}},
		{[]int{5, 3, 19}, Reflect, 2, 0, 2, []int32{76, 0, 114, 0, 76, 38, 38, 38, 38}},
		{[]int{5, 2, 38}, Edge, 2, 1, 1, []int32{76, 0, 76, 0, 0, 38, 38, 0, 38, 152, 38, 38}},
		{[]int{5, 2, 13}, Edge, edgePiecesMax, 0, 1, []int32{156, 0, 26, 0, 0, 13, 13, 0, 13, 26, 0, 13, 39, 0, 13, 52, 0, 13, 65, 0, 13, 78, 0, 13, 91, 0, 13, 104, 0, 13, 117, 0, 13, 130, 0, 13, 143, 0, 13}},
		{[]int{5, 2, 13}, Edge, edgePiecesMax + 1, 0, 1, nil},
		{[]int{5, 2, 2}, Edge, 1, 1, 2, nil},    // 4-byte units: rowsEdge4
		{[]int{5, 3, 4}, Reflect, 1, 1, 1, nil}, // 4-byte units: rowsMirror4
		{[]int{5, 3, 19}, Wrap, 1, 1, 1, nil},   // rowsWrap
	} {
		spec := Spec{Mode: c.mode, Before: []int{0, c.before, 0}, After: []int{0, c.after, 0}}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		got := piecesOf(&p.levels[len(p.levels)-1].row, c.size)
		if got == nil && c.want != nil || got != nil && !slices.Equal(got.ent, c.want) {
			t.Errorf("%v %v size %d: pieces %v, want %v", c.shape, spec, c.size, got, c.want)
		}
	}
}
