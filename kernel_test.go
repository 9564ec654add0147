package pad

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"
)

// canary surrounds test buffers: any byte a kernel writes outside the
// slice it was given shows up as a changed canary.
const canary = 64

// guarded returns a buffer of n bytes at offset off within a larger one
// whose other bytes are a known pattern, and a function that checks them.
func guarded(n, off int, seed byte) (buf []byte, check func(t *testing.T, what string)) {
	whole := make([]byte, canary+off+n+canary)
	for i := range whole {
		whole[i] = seed + byte(i*7)
	}
	keep := bytes.Clone(whole)
	buf = whole[canary+off : canary+off+n : canary+off+n]
	return buf, func(t *testing.T, what string) {
		t.Helper()
		for i := range whole {
			if (i < canary+off || i >= canary+off+n) && whole[i] != keep[i] {
				t.Fatalf("%s: byte %d outside the buffer [%d, %d) changed", what, i, canary+off, canary+off+n)
			}
		}
	}
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func patternOf(elem []byte) *[32]byte {
	var p [32]byte
	for i := range p {
		p[i] = elem[i%len(elem)]
	}
	return &p
}

// kernelLengths are the byte lengths the kernel tests try: every length up
// to 300, and lengths around the sizes where loops change gear.
func kernelLengths(size int) []int {
	var ls []int
	for n := 0; n <= 300; n += size {
		ls = append(ls, n)
	}
	for _, n := range []int{511, 512, 513, 1000, 4096, 4111, 65536 + 48} {
		ls = append(ls, n/size*size)
	}
	return ls
}

func TestKernels(t *testing.T) {
	if len(asmKernelSets) == 0 {
		t.Skip("no assembly kernels in this build")
	}
	for _, ks := range asmKernelSets {
		t.Run(ks.level.String(), func(t *testing.T) {
			if !ks.supported {
				t.Skipf("the CPU lacks %v", ks.level)
			}
			t.Run("fill", func(t *testing.T) { testFill(t, ks.fill) })
			t.Run("copy", func(t *testing.T) { testCopy(t, ks.copy) })
			if ks.copyStream != nil {
				t.Run("copyStream", func(t *testing.T) { testCopy(t, ks.copyStream) })
			}
			if ks.copyRep != nil {
				t.Run("copyRep", func(t *testing.T) { testCopy(t, ks.copyRep) })
			}
			t.Run("reverse", func(t *testing.T) { testReverse(t, ks) })
			t.Run("reverseTail", func(t *testing.T) { testReverseTail(t, ks) })
			t.Run("rowsConst", func(t *testing.T) { testRows(t, ks, false) })
			t.Run("rowsEdge", func(t *testing.T) { testRows(t, ks, true) })
			t.Run("rowsTail", func(t *testing.T) { testRowsTail(t, ks) })
		})
	}
}

// testFill and testCopy check a fill or copy kernel (or the streaming copy:
// the same goroutine reads its own streaming stores in order, so no fence
// is needed before the check).
func testFill(t *testing.T, fill func(dst *byte, n int, pat *[32]byte)) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, size := range kernelSizes {
		pat := patternOf(randomBytes(r, size))
		for _, n := range kernelLengths(size) {
			for off := 0; off < 64; off += 1 + n/64 {
				dst, check := guarded(n, off, byte(n))
				want := make([]byte, n)
				fillGo(want, pat)
				if n > 0 {
					fill(&dst[0], n, pat)
				}
				check(t, fmt.Sprintf("fill size %d n %d off %d", size, n, off))
				if !bytes.Equal(dst, want) {
					t.Fatalf("fill size %d n %d off %d:\n got %x\nwant %x", size, n, off, dst, want)
				}
			}
		}
	}
}

func testCopy(t *testing.T, copyKernel func(dst, src *byte, n int)) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range kernelLengths(1) {
		want := randomBytes(r, n)
		for off := 0; off < 64; off += 1 + n/64 {
			dst, check := guarded(n, off, byte(n))
			src, checkSrc := guarded(n, (off*7)%64, 0)
			copy(src, want)
			if n > 0 {
				copyKernel(&dst[0], &src[0], n)
			}
			check(t, fmt.Sprintf("copy n %d off %d", n, off))
			checkSrc(t, "copy src")
			if !bytes.Equal(dst, want) {
				t.Fatalf("copy n %d off %d:\n got %x\nwant %x", n, off, dst, want)
			}
		}
	}
}

func testReverse(t *testing.T, ks asmKernels) {
	r := rand.New(rand.NewPCG(3, 3))
	for i, size := range kernelSizes {
		for _, n := range kernelLengths(size) {
			data := randomBytes(r, n)
			want := make([]byte, n)
			reverseGo(want, data, size)
			for off := 0; off < 64; off += 1 + n/32 {
				dst, check := guarded(n, off, byte(n))
				src, checkSrc := guarded(n, (off*5)%64, 0)
				copy(src, data)
				if n > 0 {
					ks.reverse[i](&dst[0], &src[0], n)
				}
				check(t, fmt.Sprintf("reverse%d n %d off %d", size, n, off))
				checkSrc(t, "reverse src")
				if !bytes.Equal(dst, want) {
					t.Fatalf("reverse%d n %d off %d:\n got %x\nwant %x", size, n, off, dst, want)
				}
			}
		}
	}
}

// testRows tries every left and right pad up to 40 elements, row lengths
// around the vector widths, several rows with gaps between them.
func testRows(t *testing.T, ks asmKernels, edge bool) {
	r := rand.New(rand.NewPCG(4, 4))
	for i, size := range kernelSizes {
		pat := patternOf(randomBytes(r, size))
		mids := []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257}
		for _, midElems := range mids {
			mid := midElems * size
			for left := 0; left <= 40; left++ {
				for right := 0; right <= 40; right += 1 + r.IntN(3) {
					rows := 1 + (left+right)%4
					gap := (left % 3) * size
					l, rt := left*size, right*size
					width := l + mid + rt
					dstStride, srcStride := width+gap, mid+(right%3)*size
					n := (rows-1)*dstStride + width
					srcN := (rows-1)*srcStride + mid
					data := randomBytes(r, srcN)
					dst, check := guarded(n, left%64, byte(left))
					src, checkSrc := guarded(srcN, right%64, 0)
					copy(src, data)
					want := bytes.Clone(dst)
					if edge {
						rowsEdgeGo(want, data, size, rows, dstStride, srcStride, l, mid, rt)
						ks.rowsEdge[i](&dst[0], &src[0], rows, dstStride, srcStride, l, mid, rt)
					} else {
						rowsConstGo(want, data, rows, dstStride, srcStride, l, mid, rt, pat)
						ks.rowsConst(&dst[0], &src[0], rows, dstStride, srcStride, l, mid, rt, pat)
					}
					what := fmt.Sprintf("rows edge=%v size %d rows %d left %d mid %d right %d gap %d", edge, size, rows, l, mid, rt, gap)
					check(t, what)
					checkSrc(t, what+" src")
					if !bytes.Equal(dst, want) {
						t.Fatalf("%s:\n got %x\nwant %x", what, dst, want)
					}
				}
			}
		}
	}
}

// pageEnding returns the offset in arena of n bytes that end e bytes
// before a 4 KiB boundary.
func pageEnding(arena []byte, n, e int) int {
	end := len(arena) - 4096
	end -= int((uintptr(unsafe.Pointer(&arena[0])) + uintptr(end)) & 4095)
	return end - e - n
}

// testReverseTail checks the short reversals (under 64 bytes) whose dst or
// src ends 0 to 70 bytes before a page's end, where the AVX-512 kernels
// take the window that ends at the buffer's end (windowPast), in every
// combination for src and dst. The bytes around dst and all of src must
// keep their values.
func testReverseTail(t *testing.T, ks asmKernels) {
	r := rand.New(rand.NewPCG(8, 8))
	dstArena, srcArena := make([]byte, 16<<10), make([]byte, 16<<10)
	for i, size := range kernelSizes {
		for n := size; n < 64; n += size {
			for e := 0; e <= 70; e += 1 + r.IntN(4) {
				for _, se := range []int{e, 70 - e, (e * 5) % 71} {
					for j := range dstArena {
						dstArena[j], srcArena[j] = byte(j*7), byte(j*5)
					}
					do, so := pageEnding(dstArena, n, e), pageEnding(srcArena, n, se)
					data := randomBytes(r, n)
					copy(srcArena[so:], data)
					wantArena, keepSrc := bytes.Clone(dstArena), bytes.Clone(srcArena)
					reverseGo(wantArena[do:do+n], data, size)
					ks.reverse[i](&dstArena[do], &srcArena[so], n)
					if !bytes.Equal(dstArena, wantArena) || !bytes.Equal(srcArena, keepSrc) {
						t.Fatalf("reverse%d n %d, dst %d and src %d bytes before a page end:\n got %x\nwant %x",
							size, n, e, se, dstArena[do:do+n], wantArena[do:do+n])
					}
				}
			}
		}
	}
}

// testRowsTail checks the rows kernels' split of a call at the rows whose
// masked windows could reach past the page of its last byte, which the
// AVX-512 kernels make by their exact loop (rowsMaskedGeneral): calls in
// the general loop (a pad over 64 bytes) of 1 to 21 rows, short src rows
// among them, whose dst and src end 0 to 140 bytes before a page's end, so
// that every count of such rows, from none to all, occurs. The bytes
// around dst and all of src must keep their values.
func testRowsTail(t *testing.T, ks asmKernels) {
	r := rand.New(rand.NewPCG(7, 7))
	dstArena, srcArena := make([]byte, 64<<10), make([]byte, 64<<10)
	calls := 0
	for i, size := range kernelSizes {
		pat := patternOf(randomBytes(r, size))
		for _, g := range [][3]int{{0, 1, 18}, {17, 2, 0}, {5, 4, 30}, {0, 14, 5}, {80, 40, 3}} {
			l, mid, rt := g[0]*size, g[1]*size, g[2]*size
			if l <= 64 && rt <= 64 {
				rt = 65*size - rt // past every class and spill loop
			}
			width := l + mid + rt
			for _, rows := range []int{1, 2, 5, 21} {
				for e := 0; e <= 140; e += 1 + r.IntN(9) {
					dstStride, srcStride := width+(e%3)*size, mid+(e%2)*size
					n, srcN := (rows-1)*dstStride+width, (rows-1)*srcStride+mid
					for j := range dstArena {
						dstArena[j], srcArena[j] = byte(j*7), byte(j*5)
					}
					do, so := pageEnding(dstArena, n, e), pageEnding(srcArena, srcN, (e*7)%141)
					dst, src := dstArena[do:do+n], srcArena[so:so+srcN]
					data := randomBytes(r, srcN)
					copy(src, data)
					wantArena, keepSrc := bytes.Clone(dstArena), bytes.Clone(srcArena)
					want := wantArena[do : do+n]
					what := fmt.Sprintf("size %d rows %d left %d mid %d right %d, dst %d and src %d bytes before a page end",
						size, rows, l, mid, rt, e, (e*7)%141)
					for edge := range 2 {
						if edge == 1 {
							rowsEdgeGo(want, data, size, rows, dstStride, srcStride, l, mid, rt)
							ks.rowsEdge[i](&dst[0], &src[0], rows, dstStride, srcStride, l, mid, rt)
						} else {
							rowsConstGo(want, data, rows, dstStride, srcStride, l, mid, rt, pat)
							ks.rowsConst(&dst[0], &src[0], rows, dstStride, srcStride, l, mid, rt, pat)
						}
						if !bytes.Equal(dstArena, wantArena) || !bytes.Equal(srcArena, keepSrc) {
							t.Fatalf("edge=%d %s:\n got %x\nwant %x", edge, what, dst, want)
						}
						calls++
					}
				}
			}
		}
	}
	t.Logf("%d calls", calls)
}

// TestRequiredKernels fails when PAD_REQUIRE names a kernel level (go,
// avx2, avx512, neon) other than the one in use, so that CI notices when a
// machine or build silently falls back to a slower path.
func TestRequiredKernels(t *testing.T) {
	req := os.Getenv("PAD_REQUIRE")
	if req == "" {
		t.Skipf("PAD_REQUIRE not set; kernels in use: %s", Kernels())
	}
	// "avx512+vbmi": the AVX-512 level with the shuffle kernel.
	level := active.String()
	if shuffleInUse() {
		level += "+vbmi"
	}
	if level != req {
		t.Fatalf("PAD_REQUIRE=%s, but the kernels in use are %s", req, Kernels())
	}
}

// Plans in tests build every table at their first run, so that a plan a
// test runs once takes the kernels the periodic tables serve (lines,
// expand); TestPeriodicTablesAtSecondRun checks the deferral itself.
func init() {
	periodicAtFirstRun = true
	// A plan compiled under one test hook is never run under another from
	// CachedPlan's cache; plancache_test.go turns it on.
	planCacheSize = 0
}

// withoutGather runs f with plans that send even the smallest outputs
// through the executor (gather.go).
func withoutGather(f func()) { withValue(&gatherMaxOut, 0, f) }

// newExecPlan is NewPlan for tests of the executor and its kernels: no
// gather table, however small the output.
func newExecPlan(shape []int, s Spec, opts ...Option) (p *Plan, err error) {
	withoutGather(func() { p, err = NewPlan(shape, s, opts...) })
	return p, err
}

// setForTest sets *p to v until the test ends.
func setForTest[T any](t testing.TB, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

// withValue runs f with *p set to v, and restores *p after (setForTest
// does the same for the rest of a test).
func withValue[T any](p *T, v T, f func()) {
	saved := *p
	*p = v
	defer func() { *p = saved }()
	f()
}

// withStreaming runs f with every run writing its output as the biggest
// do (streaming stores and the input-only program, streams).
func withStreaming(f func()) {
	withValue(&streamMinBytes, 0, func() { withValue(&streamMinTraffic, 0, f) })
}

// withInputProgram runs f with every run taking its plan's input program
// (programFor), as outputs larger than the core's cache do where copies do
// not take REP MOVSB, with ordinary stores.
func withInputProgram(f func()) {
	withValue(&streamMinBytes, 0, func() {
		withValue(&streamMinTraffic, math.MaxInt, func() { withValue(&repMinBytes, 0, f) })
	})
}

// withCopyDirection runs f with every run taking the forward (d = 1) or
// backward (d = -1) form of its levels that have them (segForms).
func withCopyDirection(d int, f func()) { withValue(&forcedCopyDirection, d, f) }

// withRepCopies runs f with copyBytes taking REP MOVSB for every copy it
// may take (repCopies: not at the slow distances), where the CPU has it.
func withRepCopies(f func()) { withValue(&repMinBytes, 1, f) }

// withLevel runs f with the byte kernels at level l.
func withLevel(l kernelLevel, f func()) { withValue(&active, l, f) }

// levelHasRep reports whether the level in use has a REP MOVSB copy,
// looked up in asmKernelSets rather than through repCopiesOn, which the
// tests check.
func levelHasRep() bool {
	for _, ks := range asmKernelSets {
		if ks.level == active && ks.copyRep != nil {
			return true
		}
	}
	return false
}

// TestRowsConstNoMid: rowsConstBytes makes rows of pads only (mid 0, as
// rowsShiftedBytes fills the gaps between its mids), the source not read,
// at every level, against rowsConstGo, canaries around dst.
func TestRowsConstNoMid(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, l := range append([]kernelLevel{levelGo}, gridLevels()...) {
		withLevel(l, func() {
			for i := range 200 {
				size := kernelSizes[i%5]
				pat := patternOf(randomBytes(r, size))
				left, right := size*r.IntN(40), size*r.IntN(40)
				rows, stride := 1+r.IntN(20), left+right+r.IntN(100)
				n := (rows-1)*stride + left + right
				dst, check := guarded(n, r.IntN(64), byte(i))
				want := bytes.Clone(dst)
				rowsConstGo(want, nil, rows, stride, 0, left, 0, right, pat)
				src := []byte{0}
				rowsConstBytes(dst, src, onePlane, rows, stride, 0, left, 0, right, pat, false)
				what := fmt.Sprintf("level %v rows %d stride %d left %d right %d", l, rows, stride, left, right)
				check(t, what)
				if !bytes.Equal(dst, want) {
					t.Fatalf("%s: the rows differ from rowsConstGo's", what)
				}
			}
		})
	}
}

// TestSetPattern: the value repeats over the whole pattern at kernel sizes
// (setPattern's uint64 forms and the 16-byte copy), stays as given at the
// other sizes, and counts as zero only when every byte of it is zero,
// whichever byte is not.
func TestSetPattern(t *testing.T) {
	for _, size := range []int{1, 2, 3, 4, 8, 12, 16} {
		for nz := -1; nz < size; nz++ { // nz: the one nonzero byte, or none
			v := make([]byte, size)
			if nz >= 0 {
				v[nz] = byte(0x80 | nz)
			}
			k := newByteKernels(nil, nil, size)
			k.setValue(v)
			if k.zero != (nz < 0) {
				t.Errorf("size %d, value %x: zero %v", size, v, k.zero)
			}
			for i := range k.pat {
				want := byte(0)
				if kernelSize(size) || i < size {
					want = v[i%size]
				}
				if k.pat[i] != want {
					t.Fatalf("size %d, value %x: pattern %x", size, v, k.pat)
				}
			}
		}
	}
}
