//go:build unix && !purego && !noasm

package pad

// Guard-page tests: every kernel call and every Pad of the grid (grid_test.go)
// runs with its buffers against PROT_NONE pages, so that reading or writing
// one byte beyond them faults. The fault is turned into a test failure that
// names the case (debug.SetPanicOnFault); a fault the runtime cannot turn
// into a panic crashes the test binary with SIGSEGV. Outputs are compared
// exactly too: kernels with the Go versions, Pads with refPad.
//
// One mapping per test, its regions between guard pages:
//
//	guard | region 0 | guard | region 1 | guard | region 2 | guard
//
// Operand i of a call lives in region i: 0 the destination, then what the
// kernel reads (the source; the fill pattern, 32 bytes). Each case runs in
// two passes:
//
//   - end: every operand ends at (or, see below, o bytes before) the guard
//     page after its region: an overrun faults. An operand that ends at the
//     page starts at alignment -n mod 64, so the lengths 0..300 give every
//     start alignment 0..63.
//   - start: every operand begins right after (or o bytes after) the guard
//     page before its region, at page alignment: an underrun faults.
//
// The placement offset o of the case (grid_test.go) varies the operands'
// relative alignment: with m operands, operand o mod m is against its guard
// page and the others are o bytes away from theirs; o = 0 puts them all
// against their guard pages. (A buffer cannot both end at a page and start
// at any alignment; the canary test, canary_test.go, takes every start
// alignment with every length.) An empty operand's pointer is where its
// bytes would be: in the end pass against the guard page, the guard page
// itself.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// guardArena is one anonymous mapping of regions between PROT_NONE pages.
type guardArena struct {
	mem    []byte
	base   unsafe.Pointer
	page   int
	region int // bytes per region, a multiple of page
	n      int // regions
}

// newGuardArena maps regions regions of at least size bytes each, unmapped
// when the test ends.
func newGuardArena(t *testing.T, regions, size int) *guardArena {
	t.Helper()
	page := unix.Getpagesize()
	size = (size + gridOffsets + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, regions*size+(regions+1)*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() {
		if err := unix.Munmap(mem); err != nil {
			t.Errorf("munmap: %v", err)
		}
	})
	a := &guardArena{mem: mem, base: unsafe.Pointer(unsafe.SliceData(mem)), page: page, region: size, n: regions}
	for i := 0; i <= regions; i++ {
		g := i * (page + size)
		if err := unix.Mprotect(mem[g:g+page], unix.PROT_NONE); err != nil {
			t.Fatalf("mprotect: %v", err)
		}
	}
	return a
}

// lo and hi bound region i.
func (a *guardArena) lo(i int) int { return (i+1)*a.page + i*a.region }
func (a *guardArena) hi(i int) int { return a.lo(i) + a.region }

// place returns n bytes of region i that end shift bytes before the guard
// page after the region (end) or begin shift bytes after the one before
// it, and a pointer to them, also when n is 0.
func (a *guardArena) place(i, n, shift int, end bool) ([]byte, *byte) {
	at := a.lo(i) + shift
	if end {
		at = a.hi(i) - shift - n
	}
	if at < a.lo(i) || at+n > a.hi(i) {
		panic(fmt.Sprintf("guardArena: %d bytes at shift %d do not fit a region of %d", n, shift, a.region))
	}
	return a.mem[at : at+n : at+n], (*byte)(unsafe.Add(a.base, at))
}

// guardShift is operand i's distance from its guard page at offset o, of
// m operands.
func guardShift(i, m, o int) int {
	if o == 0 || o%m == i {
		return 0
	}
	return o
}

func guardPass(end bool) string {
	if end {
		return "end at guard pages"
	}
	return "start after guard pages"
}

// where describes an address of a fault in the arena.
func (a *guardArena) where(addr uintptr) string {
	off := int(addr - uintptr(a.base))
	if addr < uintptr(a.base) || off >= len(a.mem) {
		return "outside the arena"
	}
	for i := 0; i < a.n; i++ {
		name := "dst"
		if i > 0 {
			name = fmt.Sprintf("input %d", i)
		}
		switch {
		case off >= a.hi(i) && off < a.hi(i)+a.page:
			return fmt.Sprintf("%d bytes past the end of region %d (%s)", off-a.hi(i), i, name)
		case off < a.lo(i) && off >= a.lo(i)-a.page:
			return fmt.Sprintf("%d bytes before the start of region %d (%s)", a.lo(i)-off, i, name)
		}
	}
	return fmt.Sprintf("at arena offset %d", off)
}

// catchFault is deferred after debug.SetPanicOnFault(true): it turns the
// panic of a fault into a test failure naming the case run.
func (a *guardArena) catchFault(t *testing.T, what func() string) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(interface{ Addr() uintptr }); ok {
		t.Fatalf("%s: SIGSEGV: %v: fault address %#x, %s", what(), r, e.Addr(), a.where(e.Addr()))
	}
	panic(r)
}

// TestGuardKernels runs the grid's calls of every assembly kernel of every
// level the CPU supports, with its operands against guard pages.
func TestGuardKernels(t *testing.T) {
	if len(asmKernelSets) == 0 {
		t.Skip("no assembly kernels in this build")
	}
	g := gridDensityFor(t)
	a := newGuardArena(t, 3, 8<<10)
	for _, ks := range asmKernelSets {
		t.Run(ks.level.String(), func(t *testing.T) {
			if !ks.supported {
				t.Skipf("the CPU lacks %v", ks.level)
			}
			var (
				cnt gridCounter
				cur *gridCall
				end bool
			)
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer a.catchFault(t, func() string { return fmt.Sprintf("%v %v, %s", ks.level, cur, guardPass(end)) })
			var ptrs [2]*byte
			gridKernelCalls(ks, g, func(c *gridCall) {
				cur = c
				m := 1 + len(c.in)
				for _, end = range [2]bool{true, false} {
					dst, dp := a.place(0, c.dstLen, guardShift(0, m, c.off), end)
					for i, in := range c.in {
						b, p := a.place(i+1, len(in), guardShift(i+1, m, c.off), end)
						copy(b, in)
						ptrs[i] = p
					}
					for i := range dst {
						dst[i] = c.poison
					}
					c.call(dp, ptrs[:len(c.in)])
					if !bytes.Equal(dst, c.want) {
						t.Fatalf("%v %v, %s: %s", ks.level, c, guardPass(end), gridFirstDiff(dst, c.want))
					}
					for i, in := range c.in {
						if b, _ := a.place(i+1, len(in), guardShift(i+1, m, c.off), end); !bytes.Equal(b, in) {
							t.Fatalf("%v %v, %s: the kernel wrote to input %d", ks.level, c, guardPass(end), i)
						}
					}
				}
				cnt.add(c.kernel, 1)
			})
			t.Logf("%v, %v: %d kernel calls (kernel, K, length, offset, pads, rows), each run twice (end, start): %v",
				ks.level, g, cnt.total, &cnt)
		})
	}
}

// TestGuardPad runs the grid's Pads at every kernel level the CPU supports,
// with dst and src against guard pages.
func TestGuardPad(t *testing.T) {
	g := gridDensityFor(t)
	a := newGuardArena(t, 2, 16<<10)
	levels := gridLevels()
	var (
		cnt   gridCounter
		cur   *gridPad
		level kernelLevel
		end   bool
	)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer a.catchFault(t, func() string { return fmt.Sprintf("%v at level %v, %s", cur, level, guardPass(end)) })
	gridPadCases(g, func(c *gridPad) {
		cur = c
		p, err := newExecPlan(c.shape(), c.spec())
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		want, in := c.want(t), c.source()
		poison := gridPoison(c.seed)
		for _, level = range levels {
			for _, end = range [2]bool{true, false} {
				dst, _ := a.place(0, len(want), guardShift(0, 2, c.off), end)
				src, _ := a.place(1, len(in), guardShift(1, 2, c.off), end)
				copy(src, in)
				for i := range dst {
					dst[i] = poison
				}
				if err := c.run(p, level, dst, src); err != nil {
					t.Fatalf("%v at level %v: %v", c, level, err)
				}
				if !bytes.Equal(dst, want) {
					t.Fatalf("%v at level %v, %s: %s", c, level, guardPass(end), gridFirstDiff(dst, want))
				}
				if !bytes.Equal(src, in) {
					t.Fatalf("%v at level %v, %s: src changed", c, level, guardPass(end))
				}
			}
		}
		cnt.add(c.mode.String(), 1)
	})
	t.Logf("%v: %d Pads (mode, K, length, offset, pads, rows) at each of the levels %v, each run twice (end, start): %v",
		g, cnt.total, levels, &cnt)
}

// kernelSetOrSkip returns the first level's kernels that this CPU
// supports and that has accepts, or skips the test, saying why.
func kernelSetOrSkip(t testing.TB, has func(ks *asmKernels) bool, why string) asmKernels {
	for _, ks := range asmKernelSets {
		if ks.supported && has(&ks) {
			return ks
		}
	}
	t.Skip(why)
	return asmKernels{}
}

// supportedLevels returns the levels of this CPU whose kernels have what
// has reports.
func supportedLevels(has func(ks *asmKernels) bool) []kernelLevel {
	var levels []kernelLevel
	for i := range asmKernelSets {
		if ks := &asmKernelSets[i]; ks.supported && has(ks) {
			levels = append(levels, ks.level)
		}
	}
	return levels
}

// runPlanAtLevels runs p (runPlan) at each of levels, with dst and src at
// random offsets, in the middle of their regions and against their guard
// pages; what names the case.
func (a *guardArena) runPlanAtLevels(t *testing.T, r *rand.Rand, levels []kernelLevel, p *Plan, in []byte, es int, value, want []byte, what string) {
	for _, l := range levels {
		for _, end := range []bool{false, true} {
			dst, _ := a.place(0, len(want), r.IntN(64), end)
			src, _ := a.place(1, len(in), r.IntN(64), end)
			withLevel(l, func() {
				a.runPlan(t, p, dst, src, in, es, value, want, fmt.Sprintf("%s, level %v, %s", what, l, guardPass(end)))
			})
		}
	}
}

// runRandomPlans runs cases plans (a fifth of them with -short) that draw
// makes (a shape, a spec, an element size and a value) at each of levels,
// with dst and src against guard pages (runPlanAtLevels), against the
// reference, and fails unless at least one in share of them takes reports
// true of: what says what it checks ("take the ends kernel").
func runRandomPlans(t *testing.T, r *rand.Rand, levels []kernelLevel, cases, share int, draw func() ([]int, Spec, int, []byte), takes func(p *Plan, es int) bool, what string) {
	t.Helper()
	if testing.Short() {
		cases /= 5
	}
	a := newGuardArena(t, 2, 1<<20)
	taken := 0
	for range cases {
		shape, spec, es, value := draw()
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		if takes(p, es) {
			taken++
		}
		in := randomBytes(r, es*prod(shape))
		want, _, err := refPad(in, es, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		a.runPlanAtLevels(t, r, levels, p, in, es, value, want, fmt.Sprintf("%v %v size %d", shape, spec, es))
	}
	if taken < cases/share {
		t.Fatalf("only %d of %d cases %s", taken, cases, what)
	}
	t.Logf("%d of %d cases %s", taken, cases, what)
}

// runPlan copies in to src and runs p from src into dst (regions of a,
// element size es), a fault reported as what, and compares dst with want.
func (a *guardArena) runPlan(t *testing.T, p *Plan, dst, src, in []byte, es int, value, want []byte, what string) {
	copy(src, in)
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer a.catchFault(t, func() string { return what })
		if err := p.RunBytes(dst, src, es, value); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}()
	if !bytes.Equal(dst, want) {
		t.Fatalf("%s: %s", what, gridFirstDiff(dst, want))
	}
}

// TestGuardGather runs plans small enough for the gather and run tables
// (gather.go), whose element moves use unsafe loads and stores, at every
// element size from 1 to 17 bytes, against guard pages on either side of
// dst and src, and checks them against the executor.
func TestGuardGather(t *testing.T) {
	a := newGuardArena(t, 2, 4<<10)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var what string
	defer a.catchFault(t, func() string { return what })
	for _, c := range []struct {
		shape []int
		s     Spec
	}{
		{[]int{3, 4}, Spec{Mode: Reflect, Before: []int{1, 2}, After: []int{2, 1}}},
		{[]int{5}, Spec{Mode: Constant, Before: []int{3}, After: []int{1}}},
		{[]int{2, 3, 2}, Spec{Mode: Edge, Before: []int{0, 1, 1}, After: []int{1, 0, 1}}},
		{[]int{40}, Spec{Mode: Wrap, Before: []int{9}, After: []int{9}}},
	} {
		p, err := NewPlan(c.shape, c.s)
		if err != nil {
			t.Fatal(err)
		}
		pe, _ := newExecPlan(c.shape, c.s)
		if p.gather == nil && p.runs == nil {
			t.Fatalf("%v %v: no gather or run table", c.shape, c.s)
		}
		in, out := prod(c.shape), prod(p.OutShape())
		for size := 1; size <= 17; size++ {
			value := make([]byte, size)
			for i := range value {
				value[i] = byte(0xA0 + i)
			}
			data := make([]byte, in*size)
			for i := range data {
				data[i] = byte(i*7 + 1)
			}
			want := make([]byte, out*size)
			if err := pe.RunBytes(want, data, size, value); err != nil {
				t.Fatal(err)
			}
			for _, end := range [2]bool{true, false} {
				for shift := range 3 {
					what = fmt.Sprintf("%v %v, size %d, shift %d, %s", c.shape, c.s, size, shift, guardPass(end))
					dst, _ := a.place(0, len(want), shift, end)
					src, _ := a.place(1, len(data), shift, end)
					copy(src, data)
					if err := p.RunBytes(dst, src, size, value); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(dst, want) {
						t.Fatalf("%s: %s", what, gridFirstDiff(dst, want))
					}
				}
			}
		}
	}
}

// TestFinishedRows runs random planes whose pad rows copy finished rows
// (finishedRow: reflect, symmetric and edge padding of the rows by 1 to
// 4, 2 to copyRowsMaxPlanes+3 planes, rows of 1 to 300 elements, some
// cropped) at every level this CPU has, against guard pages and the
// reference.
func TestFinishedRows(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(161, 162))
	modes := []Mode{Reflect, Symmetric, Edge}
	runRandomPlans(t, r, levels, 300, 3, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		shape := []int{2 + r.IntN(copyRowsMaxPlanes+2), 5 + r.IntN(40), 1 + r.IntN(300/es)}
		spec := Spec{Mode: modes[r.IntN(len(modes))], Before: []int{0, 1 + r.IntN(4), r.IntN(4)}, After: []int{0, 1 + r.IntN(4), r.IntN(4)}}
		if r.IntN(5) == 0 {
			spec.Before[1] = -1 // the crop leaves pad rows from no finished row
		}
		return shape, spec, es, nil
	}, func(p *Plan, es int) bool {
		if len(p.levels) != 3 || p.levels[0].outLen > copyRowsMaxPlanes {
			return false // one plane (the executor's segments), or planes as rows
		}
		pl := &p.levels[1]
		for i, run := range pl.runs {
			if _, ok := finishedRow(pl.runs[:i], run); ok {
				return true
			}
		}
		return false
	}, "copy finished rows")
}
