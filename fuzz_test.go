package pad

// Fuzz targets for the kernel dispatch, and concurrent use of one Plan.
//
// FuzzKernels calls each assembly kernel of the level in use (the set of
// asmKernelSets whose level is active) and its dispatch wrapper, and
// compares the memory they leave with the Go version's, canaries around dst
// and src included. FuzzPadDispatch pads at the level in use and at the Go
// level (withLevel(levelGo, ...)) and compares both with refPad, errors
// included. Their seed corpora are in testdata/fuzz; plain `go test` runs
// them. To fuzz, one target at a time:
//
//	go test -run '^$' -fuzz '^FuzzKernels$' -fuzztime 60s -parallel 1
//	GODEBUG=cpu.avx512f=off go test -run '^$' -fuzz '^FuzzPadDispatch$' ...
//
// TestPlanConcurrent runs one Plan from several goroutines at once; run it
// under -race.

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

// fzMaxBytes bounds the outputs (and inputs) of one fuzz execution.
const fzMaxBytes = 64 << 10

// fzBuf is n bytes at offset off inside a larger buffer: canary bytes on
// both sides, and the whole buffer as it was filled, to check that nothing
// outside the n bytes changed.
type fzBuf struct {
	whole, keep []byte
	start, n    int
}

func newFzBuf(n, off int, seed byte) *fzBuf {
	whole := make([]byte, canary+off+n+canary)
	for i := range whole {
		whole[i] = seed ^ byte(i*151+i>>8)
	}
	return &fzBuf{whole: whole, keep: bytes.Clone(whole), start: canary + off, n: n}
}

// b is the buffer proper.
func (b *fzBuf) b() []byte { return b.whole[b.start : b.start+b.n : b.start+b.n] }

// ptr points at the buffer, also when it is empty (then at a canary, so
// that a kernel writing what it was not asked to shows).
func (b *fzBuf) ptr() *byte { return &b.whole[b.start] }

// outside returns the first byte outside the buffer that changed, or -1.
func (b *fzBuf) outside() int {
	for i := range b.whole {
		if (i < b.start || i >= b.start+b.n) && b.whole[i] != b.keep[i] {
			return i - b.start
		}
	}
	return -1
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func fzHash(data []byte) uint64 {
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64()
}

// fzSource fills b from data (repeated, each repetition shifted, so that
// elements differ) or, for no data, from a generator seeded by seed.
func fzSource(b, data []byte, seed uint64) {
	if len(data) == 0 {
		r := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return
	}
	for i := range b {
		b[i] = data[i%len(data)] + byte(i/len(data))*37
	}
}

// activeKernels returns the assembly kernel set of the level in use.
func activeKernels(t *testing.T) asmKernels {
	t.Helper()
	if active == levelGo {
		t.Skip("the kernels in use are the Go versions: no assembly to compare")
	}
	for _, ks := range asmKernelSets {
		if ks.level == active {
			if !ks.supported {
				t.Fatalf("level %v is in use but its kernels are marked unsupported", active)
			}
			return ks
		}
	}
	t.Fatalf("level %v is in use but asmKernelSets has no kernels for it", active)
	return asmKernels{}
}

// The kernels FuzzKernels drives.
const (
	fzFill = iota
	fzCopy
	fzReverse
	fzRowsConst
	fzRowsEdge
	fzRowsMirror
	fzRowsShuffle
	fzRowsWide
	fzRowsAligned
	fzRowsAlignedConst
	fzRowsShuffle256
	fzKernelCount
)

var fzKernelNames = [fzKernelCount]string{"fill", "copy", "reverse", "rowsConst", "rowsEdge", "rowsMirror", "rowsShuffle", "rowsWide", "rowsAligned", "rowsAlignedConst", "rowsShuffle256"}

// fzKernelCase is one decoded FuzzKernels input.
type fzKernelCase struct {
	kernel, ki, size           int // kernel, index of the element size in kernelSizes, the size
	n                          int // fill, copy, reverse: bytes
	dstOff, srcOff             int
	rows, dstStride, srcStride int
	left, mid, right           int // rows: bytes
	leftFrom, rightFrom        int // rowsMirror: offsets of the last unit each mirrored piece reads
	pat                        *[32]byte
	dstLen, srcLen             int // bytes the kernel may write and read
	// rowsShuffle: the table, planes (rows of width bytes from mid), the
	// list of src rows or nil
	tab    *shuffleTable
	tab256 *shuffle256Table // rowsShuffle256's table, with the geometry above
	width  int
	pl     planes
	rowIdx []int32
	// stream: copy and the aligned kernels in their streaming versions;
	// the wrappers as for a streamed output; the shuffle kernel with
	// srcLimit 0, every row under masks.
	stream bool
	// rowsAligned: bytes of the pattern before and after each plane's
	// rows (a plane's dst starts at its top pad).
	top, bottom int
}

// srcRows is the number of src rows a plane of the case reads from.
func (c *fzKernelCase) srcRows() int {
	if c.rowIdx == nil {
		return c.rows
	}
	return int(slices.Max(c.rowIdx)) + 1
}

// listArgs returns the shuffle kernels' list arguments for the list idx
// (nil or not empty): its first entry and its run of consecutive rows,
// which the kernels step through without reading the list.
func listArgs(idx []int32) (*int32, int, int) {
	if idx == nil {
		return nil, 0, 0
	}
	l := newRowList(idx)
	return &idx[0], l.run0, l.run1
}

// withRun returns idx with rows a to a+n-1 (a < len(idx), cut at its end)
// from consecutive src rows, the first one from, as the middle rows of a
// plane are.
func withRun(idx []int32, a, n, from int) []int32 {
	for t := a; t < min(a+n, len(idx)); t++ {
		idx[t] = int32(from + t - a)
	}
	return idx
}

func (c *fzKernelCase) String() string {
	switch c.kernel {
	case fzRowsWide, fzRowsAligned, fzRowsAlignedConst:
		return fmt.Sprintf("%s rows %d dstStride %d srcStride %d width %d mid %d left %d planes %+v top %d bottom %d dstOff %d srcOff %d stream %v table %x %x",
			fzKernelNames[c.kernel], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.pl, c.top, c.bottom, c.dstOff, c.srcOff, c.stream, c.tab.idx, c.tab.take)
	case fzRowsShuffle:
		return fmt.Sprintf("%s rows %d dstStride %d srcStride %d width %d mid %d planes %+v rowIdx %v dstOff %d srcOff %d table %x %x",
			fzKernelNames[c.kernel], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.pl, c.rowIdx, c.dstOff, c.srcOff, c.tab.idx[:c.width], c.tab.take)
	case fzRowsShuffle256:
		return fmt.Sprintf("%s rows %d dstStride %d srcStride %d width %d mid %d planes %+v rowIdx %v dstOff %d srcOff %d table %x",
			fzKernelNames[c.kernel], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.pl, c.rowIdx, c.dstOff, c.srcOff, c.tab256.idx)
	case fzRowsConst, fzRowsEdge, fzRowsMirror:
		return fmt.Sprintf("%s size %d rows %d dstStride %d srcStride %d left %d mid %d right %d from %d/%d dstOff %d srcOff %d stream %v",
			fzKernelNames[c.kernel], c.size, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom, c.dstOff, c.srcOff, c.stream)
	}
	return fmt.Sprintf("%s size %d n %d dstOff %d srcOff %d stream %v", fzKernelNames[c.kernel], c.size, c.n, c.dstOff, c.srcOff, c.stream)
}

// fzDecodeKernel turns FuzzKernels arguments into a case the kernel
// contract allows (notes/kernels.md).
//   - kernel: 0 fill, 1 copy, 2 reverse, 3 rowsConst, 4 rowsEdge, 5
//     rowsMirror (mod 6; rowsMirror: pieces no longer than mid, read from
//     offsets drawn from elem's hash).
//   - size: the element size K (pattern period of fill and rowsConst) if it
//     is 1, 2, 4, 8 or 16, else kernelSizes[size%5].
//   - n: bytes of fill, copy and reverse (rounded down to a multiple of K
//     where the contract asks), mid bytes of the rows kernels (rowsEdge: a
//     multiple of K, at least K; rowsConst: any).
//   - dstOff, srcOff: misalignment of dst and src, mod 64; bit 6 of srcOff
//     (stream) takes the streaming copy and aligned kernels, and the
//     wrappers' paths for streamed outputs.
//   - rows: mod 9 (0 allowed), fewer if the rows would pass 256 KiB.
//   - left, right: elements of K bytes, mod 300.
//   - dstGap: bytes between dst rows, mod 256 (any, not only multiples of K).
//   - srcGap mod 512: below 256 the bytes between src rows; from 256 on a
//     srcStride below mid ((srcGap-256) mod (mid+1)): overlapping src rows,
//     0 broadcasts one row.
//   - rowsShuffle: width 1 + left%128, mid 1 + n%128, a table drawn from
//     elem's hash (indices below mid, about one byte in eight the value),
//     1 + dstOff/64%3 planes with gaps of dstGap and srcGap bytes after the
//     rows; if right/3 is odd, a list of src rows 0..4 drawn from elem's
//     hash (as a plane's edge or mirrored pad rows repeat rows); if
//     left/128 is odd, the table's indices kept in the windows of the
//     kernel's one-permutation path (windowTable).
//   - rowsWide: mid 64 + n%5000, left and right 0..64 (mod 65, at least
//     128 bytes in all), a table over the 128-byte window drawn from elem's
//     hash, planes and gaps as rowsShuffle.
//   - rowsAligned: as rowsWide with rows next to each other (dstStride ==
//     width) and the table agreeing with the copy (agreeWithCopy), its pads
//     the value only in one case of four; top and bottom pads of
//     dstGap%16*9 and dstGap/16%16*5 periods of the pattern around each
//     plane's rows (the wrapper is rowsAlignedPads when they are not 0).
//   - rowsAlignedConst: an aligned kernel with constTable, checked against
//     rowsConstGo: left and right elements mod 129 bytes (at most 128 in
//     all), mid 64 + n%5000 rounded down to elements, planes and gaps as
//     rowsShuffle; the wrapper is rowsConstBytes.
//   - elem: the pattern element (repeated to K bytes); data: the src bytes.
func fzDecodeKernel(kernel, size, n, dstOff, srcOff, rows, left, right, dstGap, srcGap uint16, elem []byte) *fzKernelCase {
	c := &fzKernelCase{kernel: int(kernel % fzKernelCount), dstOff: int(dstOff % 64), srcOff: int(srcOff % 64), stream: srcOff&64 != 0}
	c.ki = -1
	for i, k := range kernelSizes {
		if int(size) == k {
			c.ki = i
		}
	}
	if c.ki < 0 {
		c.ki = int(size % 5)
	}
	c.size = kernelSizes[c.ki]
	K := c.size
	e := make([]byte, K)
	for i := range e {
		if len(elem) > 0 {
			e[i] = elem[i%len(elem)]
		} else {
			e[i] = 0xA0 + byte(i)
		}
	}
	c.pat = patternOf(e)
	switch c.kernel {
	case fzFill, fzReverse:
		c.n = int(n) - int(n)%K
		c.dstLen, c.srcLen = c.n, c.n
		if c.kernel == fzFill {
			c.srcLen = 0
		}
	case fzCopy:
		c.n = int(n)
		c.dstLen, c.srcLen = c.n, c.n
	case fzRowsShuffle, fzRowsWide, fzRowsAligned, fzRowsAlignedConst, fzRowsShuffle256:
		c.width, c.mid = 1+int(left%128), 1+int(n%128)
		entries := c.width
		idxMax := c.mid
		if c.kernel != fzRowsShuffle {
			c.mid = 64 + int(n%5000)
			c.left = int(left % 65)
			c.right = max(int(right%65), 128-c.left-c.mid)
			c.width = c.left + c.mid + c.right
			for c.width%K != 0 { // the pattern's period divides the width
				K /= 2
			}
			c.pat = patternOf(e[:K])
			entries, idxMax = 128, 128
		}
		c.tab = new(shuffleTable)
		h := fzHash(elem) | 1
		for i := 0; i < entries; i++ {
			h ^= h << 13
			h ^= h >> 7
			h ^= h << 17
			if h%8 != 0 {
				c.tab.idx[i] = byte(h >> 8 % uint64(idxMax))
				c.tab.take[i/64] |= 1 << (i % 64)
			}
		}
		if c.kernel == fzRowsShuffle && left/128%2 == 1 {
			windowTable(c.tab, c.width, c.mid)
		}
		if c.kernel == fzRowsShuffle256 {
			c.width, c.mid = shuffleMax+1+int(left%(shuffle256Max-shuffleMax)), 64+int(n%193)
			c.tab256 = new(shuffle256Table)
			for i := range 64 * len(c.tab256.idx) {
				h ^= h << 13
				h ^= h >> 7
				h ^= h << 17
				c.tab256.idx[i/64][i%64] = byte(h>>8) % 128
			}
		}
		c.dstStride = c.width + int(dstGap%64)
		if c.kernel == fzRowsAlignedConst {
			c.left = int(left%129) / K * K
			c.right = min(int(right%129), 128-c.left) / K * K
			c.mid = (64 + int(n%5000)) / K * K
			c.width = c.left + c.mid + c.right
			c.pat = patternOf(e[:K])
			c.tab = constTable
		}
		if c.kernel == fzRowsAlignedConst {
			c.dstStride = c.width
		}
		if c.kernel == fzRowsAligned {
			c.dstStride = c.width
			agreeWithCopy(c.tab, c.width, c.mid, c.left, h%4 == 0)
		}
		if g := int(srcGap % 512); g < 256 {
			c.srcStride = c.mid + g%64
		} else {
			c.srcStride = (g - 256) % (c.mid + 1)
		}
		c.rows = int(rows % 9)
		c.pl = planes{n: 1 + int(dstOff/64%3)}
		if (c.kernel == fzRowsShuffle || c.kernel == fzRowsShuffle256) && right/3%2 == 1 && c.rows > 0 {
			h := fzHash(elem) >> 3
			c.rowIdx = make([]int32, c.rows)
			for t := range c.rowIdx {
				c.rowIdx[t] = int32(h % 5)
				h /= 5
			}
			if h%2 == 0 {
				withRun(c.rowIdx, int(h/2%uint64(c.rows)), int(h/16%8), int(h/128%3))
			}
		}
		if c.kernel == fzRowsAligned && c.rows > 0 {
			c.top, c.bottom = int(dstGap%16)*9*K, int(dstGap/16%16)*5*K
		}
		if c.rows > 0 {
			sr := c.srcRows()
			c.pl.dst = c.top + (c.rows-1)*c.dstStride + c.width + c.bottom + int(dstGap/64%64)
			c.pl.src = (sr-1)*c.srcStride + c.mid + int(srcGap/64%64)
			c.dstLen = (c.pl.n-1)*c.pl.dst + c.top + (c.rows-1)*c.dstStride + c.width + c.bottom
			c.srcLen = (c.pl.n-1)*c.pl.src + (sr-1)*c.srcStride + c.mid
		}
	default:
		c.left, c.right = int(left%300)*K, int(right%300)*K
		c.mid = int(n)
		if c.kernel == fzRowsEdge || c.kernel == fzRowsMirror {
			c.mid = max(K, c.mid-c.mid%K)
		}
		if c.kernel == fzRowsMirror {
			c.left, c.right = min(c.left, c.mid), min(c.right, c.mid)
			h := fzHash(elem)
			lo := max(c.left-K, 0) // the lowest offset whose piece stays in the row
			c.leftFrom = lo + int(h%uint64((c.mid-K-lo)/K+1))*K
			lo = max(c.right-K, 0)
			c.rightFrom = lo + int((h>>32)%uint64((c.mid-K-lo)/K+1))*K
		}
		width := c.left + c.mid + c.right
		c.dstStride = width + int(dstGap%256)
		if g := int(srcGap % 512); g < 256 {
			c.srcStride = c.mid + g
		} else {
			c.srcStride = (g - 256) % (c.mid + 1)
		}
		c.rows = int(rows % 9)
		for c.rows > 1 && (c.rows-1)*max(c.dstStride, c.srcStride)+width > 256<<10 {
			c.rows--
		}
		if c.rows > 0 {
			c.dstLen = (c.rows-1)*c.dstStride + width
			c.srcLen = (c.rows-1)*c.srcStride + c.mid
		}
	}
	return c
}

// want returns what the Go version leaves in dst (initially dst0) from src.
func (c *fzKernelCase) want(dst0, src []byte) []byte {
	w := bytes.Clone(dst0)
	switch c.kernel {
	case fzFill:
		fillGo(w, c.pat)
	case fzCopy:
		copy(w, src)
	case fzReverse:
		reverseGo(w, src, c.size)
	case fzRowsConst:
		rowsConstGo(w, src, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.pat)
	case fzRowsEdge:
		rowsEdgeGo(w, src, c.size, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right)
	case fzRowsMirror:
		rowsMirrorGo(w, src, c.size, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom)
	case fzRowsShuffle, fzRowsShuffle256:
		c.shuffleGo(w, src)
	case fzRowsWide, fzRowsAligned:
		c.wideGo(w, src)
	case fzRowsAlignedConst:
		c.alignedConstGo(w, src)
	}
	return w
}

func (c *fzKernelCase) alignedConstGo(dst, src []byte) {
	if c.rows == 0 {
		return
	}
	for p := range c.pl.n {
		rowsConstGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.pat)
	}
}

func (c *fzKernelCase) wideGo(dst, src []byte) {
	if c.rows == 0 {
		return
	}
	for p := range c.pl.n {
		d := dst[p*c.pl.dst:]
		fillGo(d[:c.top], c.pat)
		rowsWideGo(d[c.top:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab, c.pat)
		fillGo(d[c.top+c.rows*c.width:][:c.bottom], c.pat)
	}
}

// shuffleGo runs the Go version of the case's shuffle kernel (rowsShuffle
// or rowsShuffle256).
func (c *fzKernelCase) shuffleGo(dst, src []byte) {
	if c.rows == 0 {
		return
	}
	for p := range c.pl.n {
		d, s := dst[p*c.pl.dst:], src[p*c.pl.src:]
		if c.kernel == fzRowsShuffle256 {
			rowsShuffle256Go(d, s, c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab256, c.rowIdx)
		} else {
			rowsShuffleGo(d, s, c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab, c.pat, c.rowIdx)
		}
	}
}

// callAsm calls the assembly kernel of ks.
func (c *fzKernelCase) callAsm(ks asmKernels, dst, src *fzBuf) {
	copyKernel, aligned := ks.copy, ks.rowsAligned
	if c.stream {
		copyKernel, aligned = ks.copyStream, ks.rowsAlignedStream
	}
	switch c.kernel {
	case fzFill:
		ks.fill(dst.ptr(), c.n, c.pat)
	case fzCopy:
		if copyKernel != nil {
			copyKernel(dst.ptr(), src.ptr(), c.n)
		} else { // no streaming version at this level
			copy(dst.b(), src.b())
		}
	case fzReverse:
		ks.reverse[c.ki](dst.ptr(), src.ptr(), c.n)
	case fzRowsConst:
		ks.rowsConst(dst.ptr(), src.ptr(), c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.pat)
	case fzRowsEdge:
		ks.rowsEdge[c.ki](dst.ptr(), src.ptr(), c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right)
	case fzRowsMirror:
		if m := ks.rowsMirror[c.ki]; m != nil {
			m(dst.ptr(), src.ptr(), c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom)
		} else { // no assembly version on this architecture: check the Go one
			rowsMirrorGo(dst.b(), src.b(), c.size, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom)
		}
	case fzRowsShuffle:
		if ks.rowsShuffle != nil {
			list, run0, run1 := listArgs(c.rowIdx)
			limit := shuffleLoadLimit(src.b(), c.mid)
			if c.stream {
				limit = 0
			}
			ks.rowsShuffle(dst.ptr(), src.ptr(), c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src, list, run0, run1, limit)
		} else { // the level or CPU has no shuffle kernel: check the Go one
			c.shuffleGo(dst.b(), src.b())
		}
	case fzRowsShuffle256:
		if ks.rowsShuffle256 != nil && c.rows > 0 {
			list, run0, run1 := listArgs(c.rowIdx)
			ks.rowsShuffle256(dst.ptr(), src.ptr(), c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab256.bytes(), c.pl.n, c.pl.dst, c.pl.src, list, run0, run1)
		} else { // the level or CPU has no such kernel: check the Go version
			c.shuffleGo(dst.b(), src.b())
		}
	case fzRowsWide:
		if ks.rowsWide != nil {
			ks.rowsWide(dst.ptr(), src.ptr(), c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src)
		} else {
			c.wideGo(dst.b(), src.b())
		}
	case fzRowsAligned, fzRowsAlignedConst:
		if aligned != nil {
			aligned((*byte)(unsafe.Add(unsafe.Pointer(dst.ptr()), c.top)), src.ptr(), c.rows, c.srcStride, c.width, c.mid, c.left, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src, c.top, c.bottom)
		} else { // no such kernel at this level: check the Go version
			copy(dst.b(), c.want(dst.b(), src.b()))
		}
	}
}

// callWrapper calls the dispatch wrapper (fillBytes, ...) at the level in
// use, which checks bounds, splits long runs and picks Go or assembly.
func (c *fzKernelCase) callWrapper(dst, src *fzBuf) {
	switch c.kernel {
	case fzFill:
		fillBytes(dst.b(), c.pat)
	case fzCopy:
		copyBytes(dst.b(), src.b(), c.stream)
	case fzReverse:
		reverseBytes(dst.b(), src.b(), c.size)
	case fzRowsConst:
		rowsConstBytes(dst.b(), src.b(), onePlane, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.pat, c.stream)
	case fzRowsEdge:
		rowsEdgeBytes(dst.b(), src.b(), c.size, onePlane, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right)
	case fzRowsMirror:
		rowsMirrorBytes(dst.b(), src.b(), c.size, onePlane, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom)
	case fzRowsShuffle, fzRowsShuffle256:
		var done bool
		switch list := c.rowIdx != nil; {
		case c.kernel == fzRowsShuffle && list:
			done = rowListShuffleBytes(dst.b(), src.b(), c.pl, newRowList(c.rowIdx), c.dstStride, c.srcStride, c.width, c.mid, c.tab, c.pat)
		case c.kernel == fzRowsShuffle:
			done = rowsShuffleBytes(dst.b(), src.b(), c.pl, c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab, c.pat)
		case list:
			done = rowListShuffle256Bytes(dst.b(), src.b(), c.pl, newRowList(c.rowIdx), c.dstStride, c.srcStride, c.width, c.mid, c.tab256)
		default:
			done = rowsShuffle256Bytes(dst.b(), src.b(), c.pl, c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab256)
		}
		if !done {
			c.shuffleGo(dst.b(), src.b())
		}
	case fzRowsWide, fzRowsAligned:
		if c.top+c.bottom > 0 {
			if !rowsAlignedPads(dst.b(), src.b(), c.pl, c.rows, c.srcStride, c.width, c.mid, c.left, c.top, c.bottom, c.tab, c.pat, c.stream) {
				c.wideGo(dst.b(), src.b())
			}
		} else if !rowsWideBytes(dst.b(), src.b(), c.pl, c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab, c.pat, c.stream) {
			c.wideGo(dst.b(), src.b())
		}
	case fzRowsAlignedConst:
		if c.rows > 0 {
			rowsConstBytes(dst.b(), src.b(), c.pl, c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.pat, c.stream)
		}
	}
}

// FuzzKernels: every assembly kernel of the level in use against its Go
// version, at random lengths, misalignments, patterns, element sizes and
// row geometries, with canaries around dst and src.
func FuzzKernels(f *testing.F) {
	// kernel, size, n, dstOff, srcOff, rows, left, right, dstGap, srcGap, elem, data
	f.Add(uint16(fzFill), uint16(4), uint16(68), uint16(3), uint16(0), uint16(0), uint16(0), uint16(0), uint16(0), uint16(0), []byte{1, 2, 3, 4}, []byte(nil))
	f.Add(uint16(fzCopy), uint16(1), uint16(65), uint16(1), uint16(33), uint16(0), uint16(0), uint16(0), uint16(0), uint16(0), []byte(nil), []byte("copy"))
	f.Add(uint16(fzReverse), uint16(2), uint16(66), uint16(0), uint16(7), uint16(0), uint16(0), uint16(0), uint16(0), uint16(0), []byte(nil), []byte(nil))
	f.Add(uint16(fzRowsConst), uint16(8), uint16(24), uint16(5), uint16(9), uint16(3), uint16(40), uint16(1), uint16(7), uint16(3), []byte{9, 8, 7}, []byte(nil))
	f.Add(uint16(fzRowsEdge), uint16(16), uint16(16), uint16(0), uint16(0), uint16(4), uint16(0), uint16(40), uint16(0), uint16(300), []byte(nil), []byte("edge"))
	f.Add(uint16(fzRowsShuffle), uint16(4), uint16(55), uint16(0), uint16(3), uint16(3), uint16(63), uint16(2), uint16(70), uint16(200), []byte{7}, []byte(nil))
	f.Add(uint16(fzRowsWide), uint16(4), uint16(160), uint16(0), uint16(5), uint16(2), uint16(4), uint16(4), uint16(3), uint16(100), []byte{0, 0, 0, 0}, []byte(nil))
	f.Add(uint16(fzRowsWide), uint16(1), uint16(10), uint16(64), uint16(1), uint16(3), uint16(64), uint16(0), uint16(0), uint16(300), []byte{5}, []byte(nil))
	f.Add(uint16(fzRowsAligned), uint16(4), uint16(160), uint16(0), uint16(5), uint16(5), uint16(4), uint16(4), uint16(3), uint16(100), []byte{0, 0, 0, 0}, []byte(nil))
	f.Add(uint16(fzRowsAligned), uint16(2), uint16(900), uint16(37), uint16(1), uint16(8), uint16(6), uint16(6), uint16(0), uint16(0), []byte{1, 2}, []byte(nil))
	f.Add(uint16(fzRowsShuffle), uint16(1), uint16(111), uint16(5), uint16(0), uint16(2), uint16(115), uint16(1), uint16(0), uint16(300), []byte{3, 1}, []byte(nil))
	f.Add(uint16(fzCopy), uint16(1), uint16(5000), uint16(17), uint16(64+5), uint16(0), uint16(0), uint16(0), uint16(0), uint16(0), []byte(nil), []byte("stream"))
	f.Add(uint16(fzRowsAligned), uint16(8), uint16(4048), uint16(0), uint16(64), uint16(4), uint16(8), uint16(8), uint16(0), uint16(0), []byte{1}, []byte(nil))
	f.Add(uint16(fzRowsAlignedConst), uint16(4), uint16(3936), uint16(64), uint16(64), uint16(5), uint16(0), uint16(96), uint16(0), uint16(0), []byte{0}, []byte(nil))
	f.Add(uint16(fzRowsShuffle256), uint16(4), uint16(48), uint16(0), uint16(3), uint16(3), uint16(7), uint16(3), uint16(70), uint16(200), []byte{7}, []byte(nil))
	f.Add(uint16(fzRowsAlignedConst), uint16(2), uint16(100), uint16(7), uint16(3), uint16(3), uint16(100), uint16(28), uint16(64), uint16(300), []byte{9, 9}, []byte(nil))
	f.Fuzz(func(t *testing.T, kernel, size, n, dstOff, srcOff, rows, left, right, dstGap, srcGap uint16, elem, data []byte) {
		ks := activeKernels(t)
		c := fzDecodeKernel(kernel, size, n, dstOff, srcOff, rows, left, right, dstGap, srcGap, elem)
		srcData := make([]byte, c.srcLen)
		fzSource(srcData, data, fzHash(elem)^uint64(c.srcLen))
		for pass, name := range []string{"assembly " + active.String(), "wrapper at " + active.String()} {
			dst := newFzBuf(c.dstLen, c.dstOff, byte(c.n+c.left+pass))
			src := newFzBuf(c.srcLen, c.srcOff, 0x5A)
			copy(src.b(), srcData)
			src.keep = bytes.Clone(src.whole)
			patKeep := *c.pat
			want := c.want(dst.b(), srcData)
			if pass == 0 {
				c.callAsm(ks, dst, src)
			} else {
				if c.mid == 0 && c.rows > 0 {
					continue // the wrappers are never asked for empty rows
				}
				c.callWrapper(dst, src)
			}
			if i := dst.outside(); i >= 0 {
				t.Fatalf("%s %v: wrote dst byte %d outside [0, %d)", name, c, i, c.dstLen)
			}
			if i := firstDiff(src.whole, src.keep); i >= 0 {
				t.Fatalf("%s %v: changed src (byte %d of the buffer with its canaries)", name, c, i-src.start)
			}
			if *c.pat != patKeep {
				t.Fatalf("%s %v: changed the pattern", name, c)
			}
			if i := firstDiff(dst.b(), want); i >= 0 {
				lo, hi := max(0, i-8), min(len(want), i+24)
				t.Fatalf("%s %v: dst differs from the Go version from byte %d:\n got [%d:%d] %x\nwant [%d:%d] %x",
					name, c, i, lo, hi, dst.b()[lo:hi], lo, hi, want[lo:hi])
			}
		}
	})
}

// fzDecodePad decodes FuzzPadDispatch's data with rtFuzzDecode and
// multiplies the pads, which that decoder keeps within ±12, by 1 + grow%6:
// up to ±72 elements, so that mirrored runs and row pads reach the sizes
// where the dispatch takes the assembly (reverseMinAsm, fillMinAsm) for
// every element size.
func fzDecodePad(data []byte, grow uint16) (c rtCase, kind int, value []byte) {
	c, kind, value, _ = rtFuzzDecode(data)
	m := 1 + int(grow%6)
	for i := range c.spec.Before {
		c.spec.Before[i] *= m
		c.spec.After[i] *= m
	}
	return c, kind, value
}

// fzSizeOfKind gives FuzzPadDispatch's element size for each FuzzPad kind
// (rtFuzzDecode) when the es argument does not choose one; FuzzPad's packed
// kinds 6 and 7 give an odd size and one above 16 here.
var fzSizeOfKind = [8]int{1, 2, 4, 8, 16, 3, 5, 24}

// fzRunner runs the plan on byte images of elements of one type.
type fzRunner struct {
	run     func(p *Plan, dst, src, value []byte) error
	strided func(p *Plan, dst, src []byte, strides []int, value []byte) error
}

// fzElems copies the byte image b into a new []T.
func fzElems[T any](b []byte) []T {
	var zero T
	s := make([]T, len(b)/int(unsafe.Sizeof(zero)))
	copy(asBytes(s), b)
	return s
}

func fzValue[T any](b []byte) T {
	var v T
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v)), b)
	return v
}

func fzRunnerFor[T any]() fzRunner {
	return fzRunner{
		run: func(p *Plan, dst, src, value []byte) error {
			d := fzElems[T](dst)
			err := Run(p, d, fzElems[T](src), fzValue[T](value))
			copy(dst, asBytes(d))
			return err
		},
		strided: func(p *Plan, dst, src []byte, strides []int, value []byte) error {
			d := fzElems[T](dst)
			err := RunStrided(p, d, fzElems[T](src), strides, fzValue[T](value))
			copy(dst, asBytes(d))
			return err
		},
	}
}

// fzRunners: element types of each size from 1 to 24 bytes: the basic
// kinds and a struct for the kernel sizes, byte arrays otherwise (all of
// size <= 16 take the byte kernels, larger ones the typed path).
var fzRunners = [25]fzRunner{
	1: fzRunnerFor[uint8](), 2: fzRunnerFor[uint16](), 3: fzRunnerFor[[3]byte](), 4: fzRunnerFor[float32](),
	5: fzRunnerFor[[5]byte](), 6: fzRunnerFor[[3]uint16](), 7: fzRunnerFor[[7]byte](), 8: fzRunnerFor[float64](),
	9: fzRunnerFor[[9]byte](), 10: fzRunnerFor[[5]uint16](), 11: fzRunnerFor[[11]byte](), 12: fzRunnerFor[[3]float32](),
	13: fzRunnerFor[[13]byte](), 14: fzRunnerFor[[14]byte](), 15: fzRunnerFor[[15]byte](), 16: fzRunnerFor[rtPair](),
	17: fzRunnerFor[[17]byte](), 18: fzRunnerFor[[18]byte](), 19: fzRunnerFor[[19]byte](), 20: fzRunnerFor[[5]float32](),
	21: fzRunnerFor[[21]byte](), 22: fzRunnerFor[[22]byte](), 23: fzRunnerFor[[23]byte](), 24: fzRunnerFor[[3]uint64](),
}

// The ways FuzzPadDispatch runs a plan (path % 3).
const (
	fzViaRunBytes = iota
	fzViaRun
	fzViaStrided
)

var fzViaNames = [3]string{"RunBytes", "Run", "RunStrided"}

// fzStridedView lays the contiguous tensor src (elements of es bytes, of
// the given shape) out as a strided view: innermost stride 1 or 2, gap
// elements between the rows and blocks of the outer axes. Bytes outside the
// view are 0xDB. It returns the backing bytes and the strides in elements.
func fzStridedView(src []byte, es int, shape []int, inner, gap int) ([]byte, []int) {
	strides := make([]int, len(shape))
	st := inner
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = st
		st = st*shape[i] + gap
	}
	n := rtSmallProduct(shape, fzMaxBytes)
	last := 0
	for i, d := range shape {
		if d > 0 {
			last += (d - 1) * strides[i]
		}
	}
	backing := bytes.Repeat([]byte{0xDB}, (last+1+gap)*es)
	if n == 0 {
		return backing, strides
	}
	idx := make([]int, len(shape))
	for o := 0; o < n; o++ {
		off := 0
		for i := range shape {
			off += idx[i] * strides[i]
		}
		copy(backing[off*es:(off+1)*es], src[o*es:(o+1)*es])
		for i := len(shape) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return backing, strides
}

// fzRunResult is the outcome of one way of padding.
type fzRunResult struct {
	dst      []byte
	err      error
	panicked any
}

// FuzzPadDispatch: random shapes, Specs (both orders, interior, negative
// and large pads, invalid ones) and element sizes 1 to 24, padded through
// RunBytes, Run or RunStrided at the kernel level in use (as small
// outputs run, as the biggest do with streaming stores, as those past the
// core's cache with the input program, with REP MOVSB for every copy it
// may take, and by the forward and the backward forms of its levels) and
// at the Go level, each compared bit for bit with refPad, errors included.
//
// data is decoded by rtFuzzDecode (FuzzPad's decoder): rank, element kind,
// mode, order, interior, dims and pads, the value, then src material; grow
// scales its pads (fzDecodePad). es mod 25 is the element size, 0 taking it
// from the kind (fzSizeOfKind). path mod 3 chooses RunBytes, Run[T] or
// RunStrided[T]; path/3 mod 4 == 3 gives dst one element too many or too
// few (an error); path/12 picks the strided layout, and an all-zero decoded
// value is passed as nil or as zero bytes by (path/12) mod 2.
func FuzzPadDispatch(f *testing.F) {
	// One seed per mode, from FuzzPad's seeds, through each way of running.
	f.Add([]byte{2, 0, 0, 0, 0, 3, 1, 255, 5, 2, 0, 2, 1, 3, 9, 9, 1, 2, 3}, uint16(16), uint16(0), uint16(0))          // constant + interior
	f.Add([]byte{1, 1, 1, 0, 1, 7, 12, 12, 4, 5, 6, 7, 8, 9, 10}, uint16(0), uint16(1), uint16(2))                      // reflect, several periods
	f.Add([]byte{2, 2, 2, 1, 1, 3, 254, 2, 6, 2, 250, 7, 7, 7, 7, 1, 2, 3}, uint16(4), uint16(2), uint16(0))            // edge pad-then-crop
	f.Add([]byte{1, 3, 3, 0, 1, 4, 253, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint16(7), uint16(13), uint16(1))                // wrap crop-then-pad
	f.Add([]byte{3, 4, 4, 1, 1, 2, 1, 1, 3, 0, 2, 5, 11, 255, 1, 2, 3, 4, 5, 6, 7, 8}, uint16(2), uint16(9), uint16(0)) // symmetric, short dst
	f.Add([]byte{2, 0, 0, 0, 1, 3, 1, 0, 33, 0, 10, 0}, uint16(1), uint16(0), uint16(3))                                // constant rows, right pad 40, zero value
	f.Fuzz(func(t *testing.T, data []byte, es, path, grow uint16) {
		c, kind, v0 := fzDecodePad(data, grow)
		size := int(es % 25)
		if size == 0 {
			size = fzSizeOfKind[kind]
		}
		via := int(path % 3)
		wrongDst := path/3%4 == 3
		layout := int(path / 12)

		wantSh, specErr := refCheck(c.shape, c.spec)
		inN := rtSmallProduct(c.shape, fzMaxBytes)
		if inN < 0 || inN*size > fzMaxBytes {
			return
		}
		if specErr == nil {
			if n := rtSmallProduct(wantSh, fzMaxBytes); n < 0 || n*size > fzMaxBytes {
				return
			}
		}
		seed := fzHash(data) ^ uint64(size)<<32
		src := make([]byte, inN*size)
		fzSource(src, nil, seed)
		var value []byte
		if allZero(v0) {
			if layout%2 == 1 {
				value = make([]byte, size)
			}
		} else {
			value = make([]byte, size)
			fzSource(value, nil, ^seed)
			value[0] |= 1
		}
		what := func() string {
			return fmt.Sprintf("%v, %d-byte elements via %s (wrong dst %v, layout %d), value %x", c, size, fzViaNames[via], wrongDst, layout, value)
		}

		// p sends small outputs through the executor and its kernels;
		// gathered, through the gather table (gather.go) where it has one.
		var p, gathered *Plan
		err, pv := rtCatch(func() error {
			var e error
			withoutGather(func() { p, e = NewPlan(c.shape, c.spec) })
			if e == nil {
				gathered, e = NewPlan(c.shape, c.spec)
			}
			return e
		})
		if pv != nil {
			t.Fatalf("%s: NewPlan panicked: %v", what(), pv)
		}
		if !rtSameErr(err, specErr) {
			t.Fatalf("%s: NewPlan err %v, want %v", what(), err, specErr)
		}

		want, refSh, wantErr := refPad(src, size, c.shape, c.spec, value)
		if !rtSameErr(wantErr, specErr) {
			t.Fatalf("%s: refPad err %v, refCheck err %v", what(), wantErr, specErr)
		}
		if wantErr == nil && !slices.Equal(refSh, wantSh) {
			t.Fatalf("%s: refPad shape %v, refCheck %v", what(), refSh, wantSh)
		}
		dstLen := len(want)
		if wantErr == nil && wrongDst {
			if dstLen > 0 && layout%2 == 0 {
				dstLen -= size
			} else {
				dstLen += size
			}
			wantErr = ErrShapeMismatch
		}
		if wantErr != nil && specErr != nil {
			dstLen = size * (1 + layout%5) // NewPlan failed: Into gets some dst
		}

		runner := fzRunners[size]
		run := func(p *Plan) (res fzRunResult) {
			res.dst = bytes.Repeat([]byte{0xEE}, dstLen)
			res.err, res.panicked = rtCatch(func() error {
				if p == nil {
					// An invalid Spec: Into reports NewPlan's error.
					d := fzElems[[1]byte](res.dst)
					e := Into(d, fzElems[[1]byte](src), c.shape, c.spec, [1]byte{})
					copy(res.dst, asBytes(d))
					return e
				}
				switch via {
				case fzViaRun:
					return runner.run(p, res.dst, src, value)
				case fzViaStrided:
					backing, strides := fzStridedView(src, size, c.shape, 1+layout%2, layout/2%3)
					return runner.strided(p, res.dst, backing, strides, value)
				}
				return p.RunBytes(res.dst, src, size, value)
			})
			return res
		}
		srcKeep := bytes.Clone(src)
		got := run(p)
		var generic, streamed, inputs, rep, forward, backward fzRunResult
		withLevel(levelGo, func() { generic = run(p) })
		withStreaming(func() { streamed = run(p) })
		withInputProgram(func() { inputs = run(p) })
		withRepCopies(func() { rep = run(p) })
		withCopyDirection(1, func() { forward = run(p) })
		withCopyDirection(-1, func() { backward = run(p) })
		table := run(gathered)
		if !bytes.Equal(src, srcKeep) {
			t.Fatalf("%s: src changed", what())
		}
		for _, r := range []struct {
			level any
			res   fzRunResult
		}{{active, got}, {levelGo, generic}, {fmt.Sprint(active, " streaming"), streamed}, {fmt.Sprint(active, " input program"), inputs}, {fmt.Sprint(active, " REP copies"), rep},
			{fmt.Sprint(active, " forward forms"), forward}, {fmt.Sprint(active, " backward forms"), backward}, {"gather table", table}} {
			switch {
			case r.res.panicked != nil:
				t.Fatalf("%s at level %v: panicked: %v", what(), r.level, r.res.panicked)
			case !rtSameErr(r.res.err, wantErr):
				t.Fatalf("%s at level %v: err %v, want %v", what(), r.level, r.res.err, wantErr)
			case r.res.err != nil:
				if !bytes.Equal(r.res.dst, bytes.Repeat([]byte{0xEE}, dstLen)) {
					t.Fatalf("%s at level %v: dst written with error %v", what(), r.level, r.res.err)
				}
			case !bytes.Equal(r.res.dst, want):
				i := firstDiff(r.res.dst, want)
				lo, hi := max(0, i-2*size), min(len(want), i+4*size)
				t.Fatalf("%s at level %v: output differs from refPad from byte %d (element %d):\n got [%d:%d] %x\nwant [%d:%d] %x",
					what(), r.level, i, i/size, lo, hi, r.res.dst[lo:hi], lo, hi, want[lo:hi])
			}
		}
	})
}

// TestPlanConcurrent runs one Plan from several goroutines at once, each
// into its own dst, through Run (byte kernels), RunBytes, RunStrided, the
// typed string path and RunPacked, and checks every result exactly. A Plan
// is documented as immutable and safe for concurrent use; under -race this
// also checks that running one writes nothing shared.
func TestPlanConcurrent(t *testing.T) {
	cases := []struct {
		name  string
		shape []int
		spec  Spec
	}{
		{"constant rows", []int{9, 37}, Spec{Before: []int{1, 5}, After: []int{2, 40}}},
		{"edge rows", []int{7, 20}, Spec{Mode: Edge, Before: []int{2, 3}, After: []int{1, 17}}},
		{"reflect beyond the axis", []int{3, 4, 9}, Spec{Mode: Reflect, Before: []int{4, -1, 20}, After: []int{2, 5, 11}}},
		{"wrap pad-then-crop", []int{5, 11}, Spec{Mode: Wrap, Before: []int{-2, 30}, After: []int{3, -4}, Order: PadThenCrop}},
		{"symmetric", []int{2, 3, 2, 17}, Spec{Mode: Symmetric, Before: []int{1, 4, 0, 33}, After: []int{2, 0, 3, 1}}},
		{"interior", []int{6, 7}, Spec{Before: []int{1, -2}, After: []int{3, 2}, Interior: []int{2, 1}}},
	}
	const goroutines = 4
	iters := 60
	if testing.Short() {
		iters = 10
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlan(tc.shape, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(uint64(ci), 77))
			c := rtCase{shape: tc.shape, spec: tc.spec}
			inN, outN := rtSmallProduct(tc.shape, 1<<20), rtSmallProduct(p.OutShape(), 1<<20)

			// The inputs, shared by all goroutines, and the expected outputs.
			f32 := make([]float32, inN)
			for i := range f32 {
				f32[i] = float32(i) + 0.5
			}
			wantF32, _, err := rtExpectIdx(c, f32, float32(-7.25))
			if err != nil {
				t.Fatal(err)
			}
			raw := randomBytes(r, 16*inN)
			rawValue := randomBytes(r, 16)
			want16, _, err := refPad(raw, 16, tc.shape, tc.spec, rawValue)
			if err != nil {
				t.Fatal(err)
			}
			raw3 := raw[:3*inN]
			want3, _, err := refPad(raw3, 3, tc.shape, tc.spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			strs := make([]string, inN)
			for i := range strs {
				strs[i] = fmt.Sprintf("s%d", i)
			}
			wantStr, _, err := rtExpectIdx(c, strs, "pad")
			if err != nil {
				t.Fatal(err)
			}
			// A transposed view with gaps of the float32 input: strides over a
			// larger backing whose other elements must not be read into dst.
			view := rtView{shape: tc.shape, strides: make([]int, len(tc.shape))}
			st := 1
			for i := range tc.shape { // axis 0 innermost in memory: transposed
				view.strides[i] = st
				st = st*tc.shape[i] + 1
			}
			backing := make([]float32, st)
			for i := range backing {
				backing[i] = -1
			}
			for o := range f32 { // scatter f32 through the view
				rem, off := o, 0
				for i := len(tc.shape) - 1; i >= 0; i-- {
					off += rem % tc.shape[i] * view.strides[i]
					rem /= tc.shape[i]
				}
				backing[off] = f32[o]
			}
			if !slices.EqualFunc(rtGather(view, backing), f32, rtGenF32.eq) {
				t.Fatal("the strided view does not hold the input")
			}
			nibbles := make([]byte, inN)
			for i := range nibbles {
				nibbles[i] = byte(i*5+1) & 15
			}
			packed := packBits(nibbles, 4)
			wantNib, _, err := refPad(nibbles, 1, tc.shape, tc.spec, []byte{9})
			if err != nil {
				t.Fatal(err)
			}
			wantPacked := packBits(wantNib, 4)

			type variant struct {
				name string
				run  func() (ok bool, err error)
			}
			newVariants := func() []variant {
				// Each goroutine has its own dst buffers.
				dF32, dStrided := make([]float32, outN), make([]float32, outN)
				d16, d3 := make([]byte, 16*outN), make([]byte, 3*outN)
				dStr := make([]string, outN)
				dPacked := make([]byte, len(wantPacked))
				return []variant{
					{"Run float32", func() (bool, error) {
						clear(dF32)
						err := Run(p, dF32, f32, float32(-7.25))
						return slices.EqualFunc(dF32, wantF32, rtGenF32.eq), err
					}},
					{"RunBytes 16", func() (bool, error) {
						clear(d16)
						err := p.RunBytes(d16, raw, 16, rawValue)
						return bytes.Equal(d16, want16), err
					}},
					{"RunBytes 3", func() (bool, error) {
						for i := range d3 {
							d3[i] = 0xEE
						}
						err := p.RunBytes(d3, raw3, 3, nil)
						return bytes.Equal(d3, want3), err
					}},
					{"RunStrided float32", func() (bool, error) {
						clear(dStrided)
						err := RunStrided(p, dStrided, backing, view.strides, float32(-7.25))
						return slices.EqualFunc(dStrided, wantF32, rtGenF32.eq), err
					}},
					{"Run string", func() (bool, error) {
						clear(dStr)
						err := Run(p, dStr, strs, "pad")
						return slices.EqualFunc(dStr, wantStr, func(a, b string) bool { return a == b }), err
					}},
					{"RunPacked 4", func() (bool, error) {
						clear(dPacked)
						err := p.RunPacked(dPacked, packed, 4, 9)
						return bytes.Equal(dPacked, wantPacked), err
					}},
				}
			}

			var wg sync.WaitGroup
			start := make(chan struct{})
			errs := make(chan error, goroutines)
			for g := 0; g < goroutines; g++ {
				vs := newVariants()
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					for i := 0; i < iters; i++ {
						// Goroutines start at different variants, so that
						// different paths run at the same time as well.
						for j := range vs {
							v := vs[(g+i+j)%len(vs)]
							if ok, err := v.run(); err != nil || !ok {
								errs <- fmt.Errorf("goroutine %d iteration %d: %s: err %v, result exact: %v", g, i, v.name, err, ok)
								return
							}
						}
					}
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			// The shared inputs are unchanged.
			for i := range f32 {
				if f32[i] != float32(i)+0.5 || strs[i] != fmt.Sprintf("s%d", i) {
					t.Fatalf("input element %d changed", i)
				}
			}
		})
	}
}

// agreeWithCopy makes the head and the tail of a wide table take, where
// they overlap the copy, the bytes the copy takes (the aligned kernel's
// condition); valuePads: every pad byte takes the value.
func agreeWithCopy(t *shuffleTable, width, mid, left int, valuePads bool) {
	for half, at := range [2]int{0, width - 64} {
		for i := range 64 {
			o := at + i // the output byte
			switch {
			case o >= left && o < left+mid:
				j := o - left // the src byte, in the window
				if j >= 64 {
					j = 128 + j - mid
				}
				t.idx[64*half+i] = byte(j)
				t.take[half] |= 1 << i
			case valuePads:
				t.take[half] &^= 1 << i
			}
		}
	}
	t.copyAgrees = true
}

// windowTable keeps the taken indices of a shuffle table of rows of width
// bytes from mid in the windows of the shuffle kernel's one-permutation
// path: the first 64 output bytes take from s[0:64], the others from
// s[mid-64:mid] (rows of more than 64 bytes from more than 64), as the
// tables of constant, edge and mirrored rows do.
func windowTable(tab *shuffleTable, width, mid int) {
	lo := min(mid, 64)
	for i := range width {
		if i < 64 {
			tab.idx[i] %= byte(lo)
		} else {
			tab.idx[i] = byte(mid - lo + int(tab.idx[i])%lo)
		}
	}
}
