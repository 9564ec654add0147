//go:build unix && !purego && !noasm

package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/tensorpad/pad/internal/suite"
)

// linesCall is one random call of the lines kernel: a table, a block
// count, masks, and the input its windows read, first window at offset
// first (cur 64 bytes on, or the same block).
type linesCall struct {
	tab        []byte
	entries, n int
	head, tail uint64
	sameFirst  bool
	srcLen     int // bytes of input the windows span
	seed       uint64
}

func randomLinesCall(r *rand.Rand) linesCall {
	c := linesCall{entries: linesCopies + r.IntN(80), n: 1 + r.IntN(300), seed: r.Uint64(), sameFirst: r.IntN(2) == 0}
	if r.IntN(4) == 0 {
		c.n = 1 + r.IntN(6) // the kernel's first, pair and single steps
	}
	// Any byte: the kernel reads 7 bits of an index; bit 7 of an entry's
	// first byte is its advance flag. The last linesCopies entries repeat
	// the first ones.
	c.tab = randomBytes(r, 64*(c.entries+linesCopies))
	copy(c.tab[64*c.entries:], c.tab[:64*linesCopies])
	c.head, c.tail = ^uint64(0)<<r.IntN(64), ^uint64(0)>>r.IntN(64)
	if r.IntN(4) == 0 {
		c.head, c.tail = ^uint64(0), ^uint64(0)
	}
	moves := 0
	for j := 1; j < c.n; j++ {
		moves += int(c.tab[64*(j%c.entries)] >> 7)
	}
	c.srcLen = 128 + 64*moves
	if c.sameFirst {
		c.srcLen -= 64
	}
	return c
}

func (c linesCall) String() string {
	return fmt.Sprintf("entries %d, n %d, head %#x, tail %#x, same first %v", c.entries, c.n, c.head, c.tail, c.sameFirst)
}

// check runs the call with dst and src at the ends (or starts) of guarded
// regions of a and compares with rowsLinesGo.
func (c linesCall) check(t *testing.T, a *guardArena, kernel linesKernel) {
	r := rand.New(rand.NewPCG(c.seed, 1))
	in := randomBytes(r, c.srcLen)
	first, cur := 0, 64
	if c.sameFirst {
		cur = 0
	}
	want := make([]byte, 64*c.n)
	for i := range want {
		want[i] = 0xA5
	}
	rowsLinesGo(want, in, first, cur, c.n, c.tab, c.entries, c.head, c.tail)
	off := r.IntN(64) // dst anywhere in the first line: the kernel rounds it down
	for _, end := range [2]bool{true, false} {
		dst, _ := a.place(0, len(want), 0, end)
		src, _ := a.place(1, len(in), 0, end)
		copy(src, in)
		tab, _ := a.place(2, len(c.tab), 0, end) // an entry past the copies faults
		copy(tab, c.tab)
		for i := range dst {
			dst[i] = 0xA5
		}
		func() {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer a.catchFault(t, func() string { return fmt.Sprintf("rowsLines %v, %s", c, guardPass(end)) })
			kernel(&dst[off], &src[0], cur, first, c.n, &tab[0], c.entries, c.head, c.tail)
		}()
		if !bytes.Equal(dst, want) {
			t.Fatalf("rowsLines %v, %s: %s", c, guardPass(end), gridFirstDiff(dst, want))
		}
		if !bytes.Equal(src, in) {
			t.Fatalf("rowsLines %v, %s: the kernel wrote to its input", c, guardPass(end))
		}
	}
}

func linesKernelOrSkip(t *testing.T) linesKernel {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsLines != nil }, "no level of this CPU has the lines kernel (AVX-512 VBMI)").rowsLines
}

// TestRowsLinesKernel checks the lines kernel against its Go version
// on random tables, with its output, the blocks its windows span and the
// table against guard pages: reading one line more than the windows or
// one entry past the table, or storing outside the masks, fails.
func TestRowsLinesKernel(t *testing.T) {
	kernel := linesKernelOrSkip(t)
	a := newGuardArena(t, 3, 64*301)
	r := rand.New(rand.NewPCG(7, 7))
	calls := 3000
	if testing.Short() {
		calls = 300
	}
	for range calls {
		randomLinesCall(r).check(t, a, kernel)
	}
}

func FuzzRowsLines(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		kernel := linesKernelOrSkip(t)
		randomLinesCall(rand.New(rand.NewPCG(a, b))).check(t, newGuardArena(t, 3, 64*301), kernel)
	})
}

// TestLinesPlanes pads planes of rows that take the lines kernel (every
// phase of dst and src in a line; narrow rows of 1 to 127 bytes at element
// sizes 1 and 2, and wide rows of 130 to 1000 bytes at sizes 1 to 8, whose
// middles take the kernel between pad rows made by the other kernels;
// edge, reflect, symmetric and wrap rows) with dst and src against guard
// pages, so that the ends of the input, where the kernel leaves blocks to
// Go, are at a page; compared with the reference.
func TestLinesPlanes(t *testing.T) {
	linesKernelOrSkip(t)
	setForTest(t, &linesNarrowRows, true) // narrow rows too, whatever this CPU's rule
	// Wide rows of elements of 4 bytes and more with the wide kernels in
	// cache, whose planes' middles take the lines kernel on any CPU (where
	// wideInCache is off, such rows of up to linesEndsMaxWidth bytes take
	// the ends kernel whole); narrower elements by this CPU's rule.
	setForTest(t, &wideInCache, wideInCache)
	cpuWideInCache := wideInCache
	a := newGuardArena(t, 2, 1<<20)
	r := rand.New(rand.NewPCG(3, 4))
	cases := 600
	if testing.Short() {
		cases = 90
	}
	var taken [2]int // narrow, wide
	for c := range cases {
		wide := c%3 == 2
		es := 1 << r.IntN(2)
		w := 1 + r.IntN(60)
		h := 4 + r.IntN(40)
		lp, rp := r.IntN(min(w, 5)), r.IntN(min(w, 5))
		tp, bp := r.IntN(3), r.IntN(3)
		switch {
		case wide: // widths whose periods are short enough to have tables
			es = 1 << r.IntN(4)
			w = (130 + r.IntN(870)) / es &^ 7
			h = 3 + r.IntN(20)
			lp, rp = r.IntN(min(64/es, 4)+1), r.IntN(min(64/es, 4)+1)
			w = max(w, 130/es+1-lp-rp)
		case r.IntN(2) == 0: // image-like planes, whose phases repeat soon enough to have tables
			h, w = 8<<r.IntN(3), 8*(1+r.IntN(7))
			lp, tp = 1+r.IntN(2), 1+r.IntN(2)
			rp, bp = lp, tp
		}
		mode := []Mode{Edge, Reflect, Symmetric, Wrap}[r.IntN(4)]
		if mode == Reflect {
			lp, rp, tp, bp = min(lp, w-1), min(rp, w-1), min(tp, h-1), min(bp, h-1)
		}
		wideInCache = cpuWideInCache || wide && es >= 4
		shape := []int{1 + r.IntN(3), 1 + r.IntN(5), h, w}
		spec := Spec{Mode: mode, Before: []int{0, 0, tp, lp}, After: []int{0, 0, bp, rp}}
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		tabs := p.tablesFor(es)
		if tabs.lines != nil {
			taken[btoi(tabs.wide != nil)]++
		}
		in := randomBytes(r, es*prod(shape))
		want, _, err := refPad(in, es, shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Aligned starts (the phases the tables are for, the last line
		// of the input against the guard page in the end pass), then
		// any start (the other kernels).
		for pass := range 3 {
			end := pass != 1
			shift, srcShift := (-len(want))&63, (-len(in))&63
			switch pass {
			case 1:
				shift, srcShift = 0, 0
			case 2:
				shift, srcShift = r.IntN(64), r.IntN(64)
			}
			dst, _ := a.place(0, len(want), shift, end)
			src, _ := a.place(1, len(in), srcShift, end)
			a.runPlan(t, p, dst, src, in, es, nil, want, fmt.Sprintf("%v %v size %d, %s, dst %d from its page", shape, spec, es, guardPass(end), shift))
		}
	}
	if taken[0] < cases/12 || taken[1] < cases/12 {
		t.Fatalf("only %d narrow and %d wide of %d cases have lines tables", taken[0], taken[1], cases)
	}
	t.Logf("%d narrow and %d wide of %d cases with lines tables", taken[0], taken[1], cases)
}

// tableSources returns the byte of the src row each of the width output
// bytes of a narrow table takes, -1 for the value (as linesOf's rowSrc).
func tableSources(t *shuffleTable, width int) []int32 {
	out := make([]int32, width)
	for i := range out {
		out[i] = -1
		if t.takes(i) {
			out[i] = int32(t.idx[i])
		}
	}
	return out
}

// TestLinesHeapBuffers runs the lines wrapper on Go allocations that start
// in the middle of a 64-byte line (348 and 336 bytes: objects of 352, at
// phases 0 and 32), where the kernel reads and writes whole lines from
// before the allocation. Under -race, checkptr fails a pointer that Go
// computes outside an allocation: the kernel must do that arithmetic.
func TestLinesHeapBuffers(t *testing.T) {
	ks := tableKernelsOrSkip(t)
	const width, mid, rows = 116, 112, 3
	var tab shuffleTable
	for i := range width { // edge padding by 2
		tab.idx[i] = byte(min(max(i-2, 0), mid-1))
		tab.take[i/64] |= 1 << (i % 64)
	}
	// unaligned returns n bytes of a fresh allocation that starts inside a
	// line, keeping the others it tried alive so that they are not reused.
	var keep [][]byte
	unaligned := func(n int) []byte {
		for range 64 {
			b := make([]byte, n)
			if addrPhase(b) != 0 {
				return b
			}
			keep = append(keep, b)
		}
		t.Skipf("no allocation of %d bytes off a line", n)
		return nil
	}
	r := rand.New(rand.NewPCG(5, 5))
	for range 20 {
		d, s := unaligned(rows*width), unaligned(rows*mid)
		copy(s, randomBytes(r, len(s)))
		rowSrc := tableSources(&tab, width)
		lt := linesTableOf(rowSrc, mid, linesPeriod(width, mid), addrPhase(d), addrPhase(s))
		if lt == nil {
			t.Fatalf("no table for phases %d, %d", addrPhase(d), addrPhase(s))
		}
		want := make([]byte, len(d))
		linesRowsGo(want, s, 0, len(want), mid, rowSrc)
		linesMiddle(&ks, d, s, s, lt, len(d), &linesSet{width: width, srcStride: mid, mid: mid, rowSrc: rowSrc})
		if !bytes.Equal(d, want) {
			t.Fatalf("phases %d, %d: %s", addrPhase(d), addrPhase(s), gridFirstDiff(d, want))
		}
	}
	runtime.KeepAlive(keep)
}

// TestLinesNarrowRows checks the rule that keeps planes of narrow rows off
// the lines kernel on AMD from Zen 5 on, and that the executor follows the
// setting: suite case g's planes (116-byte rows) call the lines kernel
// when it is on and never when it is off, with the same output.
func TestLinesNarrowRows(t *testing.T) {
	if want := !(isAMD() && cpuFamily() >= 26); linesNarrowRows != want {
		t.Errorf("linesNarrowRows %v, want %v (AMD %v, family %d)", linesNarrowRows, want, isAMD(), cpuFamily())
	}
	calls := countLinesCalls(t)
	setForTest(t, &linesNarrowRows, linesNarrowRows)
	shape := []int{1, 32, 112, 112}
	spec := Spec{Mode: Reflect, Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}}
	in := randomBytes(rand.New(rand.NewPCG(5, 6)), prod(shape))
	want, _, err := refPad(in, 1, shape, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, dst := suite.AlignedBytes(len(in)), suite.AlignedBytes(len(want))
	copy(src, in)
	for _, on := range []bool{false, true} {
		linesNarrowRows, *calls = on, 0
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		clear(dst)
		if err := p.RunBytes(dst, src, 1, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dst, want) {
			t.Errorf("linesNarrowRows %v: output differs from the reference", on)
		}
		if tables := p.tablesFor(1).lines != nil; tables != on || (*calls > 0) != on {
			t.Errorf("linesNarrowRows %v: lines tables %v, %d lines kernel calls", on, tables, *calls)
		}
	}
}

// TestLinesRunMin: the middles of planes of wide rows (float64 rows of
// 472 bytes, pads of 16 and 24) take the lines kernel from linesRunMin
// rows on, and the rows kernels below, with the reference's output.
func TestLinesRunMin(t *testing.T) {
	calls := countLinesCalls(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, h := range []int{2, 3, linesRunMin, 6} {
		shape := []int{64, h, 54}
		spec := Spec{Mode: Edge, Before: []int{0, 1, 2}, After: []int{0, 1, 3}}
		in := randomBytes(r, 8*prod(shape))
		want, _, err := refPad(in, 8, shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := suite.AlignedBytes(len(in)), suite.AlignedBytes(len(want))
		copy(src, in)
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		*calls = 0
		if err := p.RunBytes(dst, src, 8, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dst, want) {
			t.Errorf("%v %v: output differs from the reference", shape, spec)
		}
		if p.tablesFor(8).lines == nil && h != 3 { // 3 rows: phases with no table
			t.Fatalf("%v %v: no lines tables", shape, spec)
		}
		if (*calls > 0) != (h >= linesRunMin) {
			t.Errorf("%v %v: %d lines kernel calls, want them from %d rows on", shape, spec, *calls, linesRunMin)
		}
	}
}

// countLinesCalls counts the calls of the lines kernel of the level in
// use for the rest of the test, and skips the test where it has none.
func countLinesCalls(t *testing.T) *int {
	ks := kernelsInUse()
	if ks == nil || ks.rowsLines == nil {
		t.Skip("the level in use has no lines kernel (AVX-512 VBMI)")
	}
	calls, kernel := new(int), ks.rowsLines
	setForTest(t, &ks.rowsLines, func(dst, src *byte, cur, first, n int, tab *byte, entries int, head, tail uint64) {
		*calls++
		kernel(dst, src, cur, first, n, tab, entries, head, tail)
	})
	return calls
}
