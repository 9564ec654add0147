//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests and benchmarks of the wide kernel (KERNELS.md item 8) against its
// Go version: widths from 128 bytes with every pad length 0..64 on each
// side, random head and tail tables, canaries around dst and src, gaps
// between rows and planes, broadcast src rows; then with the buffers
// against PROT_NONE pages. FuzzKernels fuzzes it too.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// rowsGeometry is where a table kernel's call puts its rows: rows of width
// bytes dstStride apart in dst, from src rows of mid bytes srcStride apart,
// the copy at left, in planes.
type rowsGeometry struct {
	rows, dstStride, srcStride, width, mid, left int
	pl                                           planes
}

func (c *rowsGeometry) String() string {
	return fmt.Sprintf("rows %d dstStride %d srcStride %d width %d mid %d left %d planes %+v",
		c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.pl)
}

func (c *rowsGeometry) lens() (dst, src int) {
	return (c.pl.n-1)*c.pl.dst + (c.rows-1)*c.dstStride + c.width, (c.pl.n-1)*c.pl.src + (c.rows-1)*c.srcStride + c.mid
}

// randomRowsGeometry draws rows of left+mid+right bytes: gaps between rows
// and planes, src rows apart, overlapping or broadcast.
func randomRowsGeometry(r *rand.Rand, left, mid, right int) rowsGeometry {
	width := left + mid + right
	c := rowsGeometry{width: width, mid: mid, left: left, rows: 1 + r.IntN(3)}
	c.dstStride = width + []int{0, 0, 1, 5, 64}[r.IntN(5)]
	if r.IntN(4) == 0 {
		c.srcStride = 0
	} else {
		c.srcStride = mid + []int{0, 3, 64}[r.IntN(3)]
	}
	c.pl = planes{n: 1 + r.IntN(3)}
	c.pl.dst = (c.rows-1)*c.dstStride + width + r.IntN(9)
	c.pl.src = (c.rows-1)*c.srcStride + mid + r.IntN(9)
	return c
}

// randomPattern draws a value pattern whose period divides 16 and width.
func randomPattern(r *rand.Rand, width int) *[32]byte {
	period := []int{1, 2, 4, 8, 16}[r.IntN(5)]
	for width%period != 0 {
		period /= 2
	}
	return patternOf(randomBytes(r, period))
}

type wideCase struct {
	rowsGeometry
	tab *shuffleTable
	pat *[32]byte
}

func (c *wideCase) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		rowsWideGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab, c.pat)
	}
}

func (c *wideCase) asm(ks asmKernels, dst, src []byte) {
	ks.rowsWide(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src)
}

// randomWideCase draws a table over the 128-byte window and a geometry.
// The pattern's period divides 16 and the width (as the contract asks).
func randomWideCase(r *rand.Rand, left, mid, right int) *wideCase {
	c := &wideCase{tab: new(shuffleTable), pat: randomPattern(r, left+mid+right)}
	valueEvery := []int{0, 2, 8}[r.IntN(3)]
	for i := range 128 {
		if valueEvery == 0 || r.IntN(valueEvery) != 0 {
			c.tab.idx[i] = byte(r.IntN(128))
			c.tab.take[i/64] |= 1 << (i % 64)
		} else {
			c.tab.idx[i] = byte(r.IntN(256)) // ignored
		}
	}
	c.rowsGeometry = randomRowsGeometry(r, left, mid, right)
	return c
}

// alignedCase is a call of the aligned kernel (stream: its streaming
// version): a wide case whose rows follow each other and whose table agrees
// with the copy, each plane's rows after top and before bottom bytes of
// the pattern (a plane's dst, pl.dst apart, starts at its top pad).
type alignedCase struct {
	*wideCase
	stream      bool
	top, bottom int
}

func (c alignedCase) String() string {
	return fmt.Sprintf("%v stream %v top %d bottom %d", c.wideCase, c.stream, c.top, c.bottom)
}

func (c alignedCase) lens() (dst, src int) {
	_, src = c.wideCase.lens()
	return (c.pl.n-1)*c.pl.dst + c.top + c.rows*c.width + c.bottom, src
}

// padPlanes writes each plane's top and bottom pads by fillGo around rows
// made by rows (one plane's rows at d from s).
func (c alignedCase) padPlanes(dst, src []byte, rows func(d, s []byte)) {
	for p := range c.pl.n {
		d := dst[p*c.pl.dst:]
		fillGo(d[:c.top], c.pat)
		rows(d[c.top:], src[p*c.pl.src:])
		fillGo(d[c.top+c.rows*c.width:][:c.bottom], c.pat)
	}
}

func (c alignedCase) goVersion(dst, src []byte) {
	c.padPlanes(dst, src, func(d, s []byte) {
		rowsWideGo(d, s, c.rows, c.width, c.srcStride, c.width, c.mid, c.left, c.tab, c.pat)
	})
}

func (c alignedCase) asm(ks asmKernels, dst, src []byte) {
	ks.aligned(c.stream)(&dst[c.top], &src[0], c.rows, c.srcStride, c.width, c.mid, c.left, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src, c.top, c.bottom)
}

// drawPads sets the case's top and bottom pads (multiples of period, none
// in one case of two) and its planes' distance.
func (c *alignedCase) drawPads(r *rand.Rand, period int) {
	pads := func() int {
		return []int{0, 0, 0, period * (1 + r.IntN(40)), c.width, 3 * c.width}[r.IntN(6)]
	}
	c.top, c.bottom = pads(), pads()
	c.pl.dst = c.top + c.rows*c.width + c.bottom + []int{0, 0, 1, 7, 64}[r.IntN(5)]
}

// alignedConstCase is a call of an aligned kernel with constTable:
// constant rows whose pads may exceed 64 bytes (left + right <= 128), as
// rowsConstBytes makes them for streamed outputs (the pattern repeating
// after left and after mid bytes).
type alignedConstCase struct{ alignedCase }

func (c alignedConstCase) goVersion(dst, src []byte) {
	right := c.width - c.left - c.mid
	c.padPlanes(dst, src, func(d, s []byte) {
		rowsConstGo(d, s, c.rows, c.width, c.srcStride, c.left, c.mid, right, c.pat)
	})
}

// randomAlignedConstCase draws rows of constant padding for an aligned
// kernel: rows next to each other, gaps between planes, src rows apart,
// overlapping or broadcast.
func randomAlignedConstCase(r *rand.Rand, left, mid, right int, stream bool) alignedConstCase {
	c := randomWideCase(r, left, mid, right)
	c.tab = constTable
	// The pads start a multiple of the period from the row (elements).
	period := 16
	for left%period != 0 || mid%period != 0 {
		period /= 2
	}
	c.pat = patternOf(c.pat[:period])
	c.dstStride = c.width
	a := alignedCase{wideCase: c, stream: stream}
	a.drawPads(r, period)
	return alignedConstCase{a}
}

// randomAlignedCase draws a wide case for the aligned kernel: rows next to
// each other, the table's head and tail made to agree with the copy, and
// in one case of three pads that take only the value (constant padding,
// the kernel's path without windows).
func randomAlignedCase(r *rand.Rand, left, mid, right int, stream bool) alignedCase {
	c := randomWideCase(r, left, mid, right)
	c.dstStride = c.width
	agreeWithCopy(c.tab, c.width, mid, left, r.IntN(3) == 0)
	a := alignedCase{wideCase: c, stream: stream}
	a.drawPads(r, patternPeriod(c.pat))
	return a
}

// wideMids are the src row lengths the tests try: around the kernel's
// 64-byte vectors, the short-middle boundary (width 192) and the long
// middles (256 bytes and more) that take the aligned loop (copyShifted).
var wideMids = []int{64, 65, 70, 100, 127, 128, 129, 150, 191, 192, 193, 255, 256, 300, 513, 1000, 1023, 1024, 1030, 1100, 2049, 4100}

func TestRowsWideKernel(t *testing.T) {
	wideKernelSweep(t, 9, 64, func(r *rand.Rand, left, mid, right int) tableCall { return randomWideCase(r, left, mid, right) })
}

func TestRowsWideGuard(t *testing.T) {
	wideGuardSweep(t, 10, 1, 64, func(r *rand.Rand, left, mid, right int) tableCall { return randomWideCase(r, left, mid, right) })
}

func TestRowsAlignedKernel(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			wideKernelSweep(t, 11, 64, func(r *rand.Rand, left, mid, right int) tableCall {
				return randomAlignedCase(r, left, mid, right, stream)
			})
		})
	}
}

func TestRowsAlignedGuard(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			wideGuardSweep(t, 12, 2, 64, func(r *rand.Rand, left, mid, right int) tableCall {
				return randomAlignedCase(r, left, mid, right, stream)
			})
		})
	}
}

// TestRowsAlignedConst: the aligned kernels with constTable against
// rowsConstGo, pads of up to 128 bytes in all.
func TestRowsAlignedConst(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			newCase := func(r *rand.Rand, left, mid, right int) tableCall {
				return randomAlignedConstCase(r, left, mid, right, stream)
			}
			wideKernelSweep(t, 13, 128, newCase)
			wideGuardSweep(t, 14, 1, 128, newCase)
		})
	}
}

// wideKernelSweep checks a wide-row kernel between canaries: every left
// pad 0..64 (0..pads) with five right pads, left + right <= pads (64 or,
// for constant rows, 128), over wideMids.
func wideKernelSweep(t *testing.T, seed uint64, pads int, newCase func(r *rand.Rand, left, mid, right int) tableCall) {
	ks := tableKernelsOrSkip(t)
	r := rand.New(rand.NewPCG(seed, seed))
	calls := 0
	for _, mid := range wideMids {
		for left := 0; left <= pads; left++ {
			for _, right := range []int{0, 1, left, 63 - left%7, 64, pads - left} {
				if left+mid+right < 128 || right > 64 && pads == 64 || left+right > pads {
					continue
				}
				checkCanaries(t, r, ks, newCase(r, left, mid, right), byte(left))
				calls++
			}
		}
	}
	t.Logf("%d calls", calls)
}

// wideGuardSweep checks a wide-row kernel against guard pages: tries
// random cases at each of the four guard positions per geometry (pads as
// wideKernelSweep).
func wideGuardSweep(t *testing.T, seed uint64, tries, pads int, newCase func(r *rand.Rand, left, mid, right int) tableCall) {
	ks := tableKernelsOrSkip(t)
	sdata, ddata, unmap := guardPages(t, 2)
	defer unmap()
	r := rand.New(rand.NewPCG(seed, seed))
	calls := 0
	for _, mid := range wideMids {
		for _, left := range []int{0, 1, 4, 32, 63, 64, 100, 128} {
			for _, right := range []int{0, 3, 64, pads - left} {
				if left+mid+right < 128 || left+right > pads || left > 64 && pads == 64 {
					continue
				}
				for pos := 0; pos < 4*tries; pos++ {
					if checkGuarded(t, r, ks, newCase(r, left, mid, right), sdata, ddata, pos%4) {
						calls++
					}
				}
			}
		}
	}
	t.Logf("%d guarded calls", calls)
}

// BenchmarkRowsWide: the wide and the aligned kernel against
// rowsConstAVX512 on constant rows with 4-byte pads that follow each other
// in dst (suite case a: 224-byte rows, j: 888, and longer rows), from L2
// (about 800 KiB of output).
func BenchmarkRowsWide(b *testing.B) {
	ks := tableKernelsOrSkip(b)
	var pat [32]byte
	for _, mid := range []int{224, 888, 1500, 2000, 2800, 4096, 16000} {
		left, right := 4, 4
		width := left + mid + right
		rows := max(1, 800<<10/width)
		dst := benchBytes(rows * width)
		src := benchBytes(rows * mid)
		var tab shuffleTable
		tab.take = [2]uint64{^uint64(0) &^ (1<<left - 1), ^uint64(0) >> right}
		for i := left; i < 64; i++ {
			tab.idx[i] = byte(i - left)
		}
		for i := range 64 - right {
			tab.idx[64+i] = byte(64 + i + right)
		}
		b.Run(fmt.Sprintf("mid=%d/kernel=rowsConstAVX512", mid), func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			for i := 0; i < b.N; i++ {
				ks.rowsConst(&dst[0], &src[0], rows, width, mid, left, mid, right, &pat)
			}
		})
		b.Run(fmt.Sprintf("mid=%d/kernel=rowsWideAVX512", mid), func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			for i := 0; i < b.N; i++ {
				ks.rowsWide(&dst[0], &src[0], rows, width, mid, width, mid, left, tab.bytes(), &pat, 1, 0, 0)
			}
		})
		b.Run(fmt.Sprintf("mid=%d/kernel=rowsAlignedAVX512", mid), func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			for i := 0; i < b.N; i++ {
				ks.rowsAligned(&dst[0], &src[0], rows, mid, width, mid, left, tab.bytes(), &pat, 1, 0, 0, 0, 0)
			}
		})
	}
}

// patternPeriod is the period of a pattern: the least n in 1, 2, 4, ...,
// 32 after which it repeats.
func patternPeriod(pat *[32]byte) int {
	n := 1
	for n < 32 && !repeatsAfter(pat, n) {
		n *= 2
	}
	return n
}

// TestAlignedInCache checks the rule that sends wide rows that follow each
// other in an output that does not stream to the wide kernel rather than
// the aligned one on AMD from Zen 5 on (alignedInCache), and that the
// executor follows it: the pad rows of float64 planes reflected by 3 (rows
// the wide kernels keep, their middles the lines kernel's) take the
// aligned kernel when it is on and the wide kernel when it is off, and a
// streamed output takes the streaming aligned kernel either way; then
// random plans of wide rows, with it on and off, at every level that has
// the kernels, against guard pages and the reference.
func TestAlignedInCache(t *testing.T) {
	if want := !(isAMD() && cpuFamily() >= 26); alignedInCache != want {
		t.Errorf("alignedInCache %v, want %v (AMD %v, family %d)", alignedInCache, want, isAMD(), cpuFamily())
	}
	ks := kernelsInUse()
	if ks == nil || ks.rowsWide == nil || ks.rowsAligned == nil || ks.rowsAlignedStream == nil {
		t.Skip("the level in use has no wide kernels (AVX-512 VBMI)")
	}
	setForTest(t, &alignedInCache, alignedInCache)
	var wide, aligned, streamed int
	countWideCalls(t, ks, &wide)
	countAlignedCalls(t, &ks.rowsAligned, &aligned)
	countAlignedCalls(t, &ks.rowsAlignedStream, &streamed)
	r := rand.New(rand.NewPCG(49, 50))
	shape, spec := []int{64, 14, 40}, Spec{Mode: Reflect, Before: []int{0, 3, 3}, After: []int{0, 3, 3}} // rows of 320 bytes in: not the shuffle256 kernel's
	p, err := newExecPlan(shape, spec, Workers(1))
	if err != nil {
		t.Fatal(err)
	}
	in := randomBytes(r, 8*prod(shape))
	want, _, err := refPad(in, 8, shape, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		on, stream              bool
		wide, aligned, streamed bool // which kernels make rows
	}{
		{true, false, false, true, false},
		{false, false, true, false, false},
		{true, true, false, false, true},
		{false, true, false, false, true},
	} {
		alignedInCache, wide, aligned, streamed = c.on, 0, 0, 0
		dst := make([]byte, len(want))
		run := func() { err = p.RunBytes(dst, in, 8, nil) }
		if c.stream {
			withStreaming(run)
		} else {
			run()
		}
		if err != nil || !bytes.Equal(dst, want) {
			t.Errorf("%v %v, alignedInCache %v, stream %v: output differs from the reference (%v)", shape, spec, c.on, c.stream, err)
		}
		if (wide > 0) != c.wide || (aligned > 0) != c.aligned || (streamed > 0) != c.streamed {
			t.Errorf("%v %v, alignedInCache %v, stream %v: %d wide, %d aligned and %d streaming aligned kernel calls, want %v, %v, %v",
				shape, spec, c.on, c.stream, wide, aligned, streamed, c.wide, c.aligned, c.streamed)
		}
	}

	levels := supportedLevels(func(ks *asmKernels) bool { return ks.rowsAligned != nil })
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprint("alignedInCache=", on), func(t *testing.T) {
			alignedInCache, wide, aligned = on, 0, 0
			runRandomPlans(t, r, levels, 200, 3, func() ([]int, Spec, int, []byte) {
				es := 1 << r.IntN(4)
				w := (129 + r.IntN(1000)) / es
				pads := func() int { return r.IntN(64/es + 1) }
				lp, rp, tp, bp := pads(), pads(), r.IntN(4), r.IntN(4)
				h := 4 + r.IntN(12)
				mode := []Mode{Constant, Edge, Reflect, Symmetric, Wrap}[r.IntN(5)]
				if mode == Reflect {
					lp, rp, tp, bp = min(lp, w-1), min(rp, w-1), min(tp, h-1), min(bp, h-1)
				}
				var value []byte
				if mode == Constant && r.IntN(2) == 0 {
					value = randomBytes(r, es)
				}
				spec := Spec{Mode: mode, Before: []int{0, tp, lp}, After: []int{0, bp, rp}}
				return []int{1 + r.IntN(8), h, w}, spec, es, value
			}, func(p *Plan, es int) bool {
				tb := p.tablesFor(es)
				return tb.wide != nil && !tb.skipWide
			}, "keep the wide kernels")
			if on && aligned == 0 || !on && wide == 0 {
				t.Errorf("%d wide and %d aligned kernel calls: want the aligned kernel's rows when alignedInCache is on, the wide kernel's when off", wide, aligned)
			}
		})
	}
}

// countWideCalls replaces ks's wide kernel, until the test ends, with one
// that counts its calls in *n.
func countWideCalls(t *testing.T, ks *asmKernels, n *int) {
	kernel := ks.rowsWide
	setForTest(t, &ks.rowsWide, func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int) {
		*n++
		kernel(dst, src, rows, dstStride, srcStride, width, mid, left, tab, pat, planes, dstPlane, srcPlane)
	})
}

// countAlignedCalls does the same for the aligned kernel at *k.
func countAlignedCalls(t *testing.T, k *alignedKernel, n *int) {
	kernel := *k
	setForTest(t, k, func(dst, src *byte, rows, srcStride, width, mid, left int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane, top, bottom int) {
		*n++
		kernel(dst, src, rows, srcStride, width, mid, left, tab, pat, planes, dstPlane, srcPlane, top, bottom)
	})
}
