package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
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
