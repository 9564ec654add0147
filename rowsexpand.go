package pad

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
)

// The expand kernel (KERNELS.md item 11) makes constant padding of planes
// whose rows and planes follow each other in src and in dst (suite case a,
// a conv pad of 56-float rows to 58) as one stream of 64-byte-aligned
// blocks: each block is the next input bytes spread over the bytes its
// mask takes, the pattern in the others. The masks repeat every
// lcm(plane, 64) output bytes, so one table serves every plane, and the
// kernel has no row or plane boundary to test. The aligned kernel makes
// the same output with a few instructions per row more.

// expandMaxEntries bounds an expand table: 16 KiB of masks.
const expandMaxEntries = 2048

// expandCopies is the number of masks after a period that repeat its
// first ones: the AVX-512 expand kernels make eight blocks a turn and
// move back by a period only between turns.
const expandCopies = 7

// expandTable is the expand kernel's table of one element size for planes
// of top pad bytes, rows rows of width bytes (left pad bytes, mid input
// bytes, the rest pad) and bottom pad bytes, or for cubes of such planes
// and pad planes (plane and rows are then a cube's bytes and input rows):
// the mask of each 64-byte block of a period of lcm(plane, 64) output
// bytes from a plane's start, plus expandCopies copies of the first masks
// (the kernel reads eight a turn). A short period is repeated to eight
// masks at least.
type expandTable struct {
	plane, rows, mid int
	width            int // of a row, in bytes
	period, entries  int // period bytes, entries masks
	// most: where a period would need more than expandMaxEntries masks
	// but the plan's planes (or cubes) fit in them, the table holds their
	// masks only, from a plane's start, and a call makes at most most
	// planes; 0 for a periodic table.
	most  int
	masks []uint64
	// shifts: the tables of streams that start 1 to 63 bytes into a
	// plane, as shiftedBy builds them, index the shift.
	shifts [64]atomic.Pointer[expandTable]
	// dwords: when every 4-byte word of the period is taken whole or not
	// at all (elements of 4, 8 or 16 bytes), the word masks of its 32-byte
	// blocks (2*entries), plus copies of the first 2*expandCopies, for the word
	// kernels (rowsExpandDwordsAVX2 and rowsExpandDwordsAVX512); else nil.
	dwords []byte
	// halves: for levels whose byte expand kernel is rowsExpandBytesAVX2
	// (no VBMI2), the masks as codes of their 32-byte halves where they
	// take halfDictMax half masks at most (newHalfTable); else nil.
	halves *halfTable
}

// halfTable is the expand table of rowsExpandHalvesAVX2: for each of a
// table's entries masks, the codes of its two 32-byte halves and its
// lanes' input offsets, and the entries the codes point at.
type halfTable struct {
	blocks [][8]byte // the offsets in dict of the halves' entries (2 bytes each), the counts of the first 16, 32, 48 and 64 bits
	// dict: 32 bytes an entry, the shuffle indexes of its half mask in
	// each 16-byte lane (the count of set bits below each set bit, 0x80 at
	// clear ones). The clear mask's entry is the first (offset 0), so that
	// a clear block's is all zero.
	dict []byte
}

// repeats reports whether most masks that take a byte are the mask before
// them again: dilated matrices (0.64-0.89 of them in a survey of seven),
// whose blocks rowsExpandBytesAVX2 makes from registers as fast as
// rowsExpandHalvesAVX2 and whose half tables then cost 1.08-1.09x the
// time (int16 [87, 158] and uint8 [57, 384] dilated by 1); dilated planes
// repeat none (their rows are not a multiple of 64 bytes), and take 0.79x
// the time by their half tables (uint8 [1, 25, 44, 44] dilated by 1,
// padded by 1).
func repeats(masks []uint64) bool {
	taking, again := 0, 0
	for j, m := range masks {
		if m != 0 {
			taking++
			if j > 0 && m == masks[j-1] {
				again++
			}
		}
	}
	return 2*again > taking
}

// buildHalves makes every table of interior padding build its half table
// where it may have one, whatever the level in use (a test hook: the tests
// build a plan's tables at the level in use and run them at each).
var buildHalves = false

// halfDictMax bounds a half table's distinct half masks: 8 KiB of entries.
const halfDictMax = 256

// newHalfTable returns the half table of the first entries masks, or nil
// if their halves take more than halfDictMax masks.
func newHalfTable(masks []uint64, entries int) *halfTable {
	ht := &halfTable{blocks: make([][8]byte, entries)}
	codes := make(map[uint32]uint16)
	code := func(m uint32) (uint16, bool) {
		c, ok := codes[m]
		if !ok {
			if len(codes) == halfDictMax {
				return 0, false
			}
			c = uint16(len(ht.dict))
			codes[m] = c
			var e [32]byte
			for l := range 2 {
				k := byte(0)
				for i := 16 * l; i < 16*l+16; i++ {
					e[i] = 0x80
					if m>>i&1 != 0 {
						e[i], k = k, k+1
					}
				}
			}
			ht.dict = append(ht.dict, e[:]...)
		}
		return c, true
	}
	code(0)
	for j, m := range masks[:entries] {
		lo, okLo := code(uint32(m))
		hi, okHi := code(uint32(m >> 32))
		if !okLo || !okHi {
			return nil
		}
		b := &ht.blocks[j]
		binary.LittleEndian.PutUint16(b[0:], lo)
		binary.LittleEndian.PutUint16(b[2:], hi)
		for q := range 3 {
			b[4+q] = byte(bits.OnesCount64(m << (48 - 16*q)))
		}
		b[7] = byte(bits.OnesCount64(m))
	}
	return ht
}

// expandOf returns the expand table at element size bytes of the planes
// of pl if their rows (of lv, constant padding) are pad rows around one
// run of consecutive input rows whose pads take no input byte, or nil;
// planes is how many the plan has.
func expandOf(pl, lv *level, rowStride, size, planes int) *expandTable {
	r := &lv.row
	top, run, ok := expandPlane(pl, lv, rowStride)
	if !ok {
		return nil
	}
	if pl.outLen > expandMaxEntries*64/max(pl.blk, 1) {
		return nil // a period is a plane at least
	}
	width, left, mid := pl.blk*size, r.left*size, r.mid*size
	return newExpandTableOf(pl.outLen*width, run.n, width, mid, planes, func(t *expandTable, p int) {
		t.setRows(p+top*width, run.n, width, left, mid)
	})
}

// expandPlane reports whether the planes of pl (rows of lv, rowStride
// input elements apart) are what the expand tables take: pad rows of
// constant padding (top of them first) around one run of consecutive
// input rows, each row's pads taking no input byte.
func expandPlane(pl, lv *level, rowStride int) (top int, run rowRun, ok bool) {
	r := &lv.row
	top, _, run, ok = padRows(pl.runs, pl.outLen)
	if !ok || r.kind != rowConst || r.mid == 0 || run.n == 0 || rowStride != r.mid {
		return 0, rowRun{}, false
	}
	return top, run, true
}

// cubeExpandPlaneMax bounds the planes, in bytes, of cubes of one input
// plane that take a table of their own (cubeExpandOf). In process, the
// two alternated 7 rounds, cubes of one input plane and planes over 4 KiB
// took 0.75-1.38x the time by the table, median 1.00 (float64
// [3, 1, 69, 45] padded to [3, 4, 72, 47] with 3s 0.85 -> 1.17x memmove,
// uint8 [11, 1, 61, 94] 1.18 -> 1.58x), where the old path fills the pad
// planes and makes the one plane by the rows kernels; those of two input
// planes or more 0.61-1.07x, median 0.98, and of planes up to 4 KiB
// 0.24-1.05x, median 0.68-0.82.
const cubeExpandPlaneMax = 4 << 10

// cubeExpandOf returns the expand table at element size bytes of the
// cubes of cl (blocks of planes of pl) if each is pad planes around all
// its input planes, one after the other in src, each plane as expandOf
// takes it from all its input rows, or nil: a cube is then one stream of
// the kernel, where the executor would make its pad planes and its run of
// planes apart (a call, and a plane's head off a line, a cube). cubes is
// how many the plan has.
func cubeExpandOf(cl, pl, lv *level, planeStride, rowStride, size, cubes int) *expandTable {
	r := &lv.row
	top, run, ok := expandPlane(pl, lv, rowStride)
	if !ok || r.src != 0 || run.src != 0 || run.n != pl.inLen || planeStride != pl.inLen*rowStride {
		return nil
	}
	first, planes := -1, 0 // the cube's run of input planes
	for _, s := range cl.segs {
		switch {
		case s.kind == segFill:
		case s.kind == segSrc && s.step == 1 && s.src == 0 && s.n == cl.inLen && first < 0:
			first, planes = s.at, s.n
		default:
			return nil
		}
	}
	width := pl.blk * size
	plane := pl.outLen * width
	if first < 0 || planes == cl.outLen || cl.blk*size != plane || cl.outLen > expandMaxEntries*64/max(plane, 1) ||
		planes == 1 && plane > cubeExpandPlaneMax {
		return nil
	}
	return newExpandTableOf(cl.outLen*plane, planes*run.n, width, r.mid*size, cubes, func(t *expandTable, p int) {
		for q := range planes {
			t.setRows(p+(first+q)*plane+top*width, run.n, width, r.left*size, r.mid*size)
		}
	})
}

// denseExpandOf returns the expand table at element size bytes of the
// output units of interior padding: the sub-tensors that levels (the plane
// level and the rows, or the whole program of one or two levels) make, with
// strides their input strides, if they dilate (segDilate) and a unit's
// output takes the value or the next element of its input, every element
// once, in order (constant padding, uncropped). The expand kernel then makes
// a run of units as one stream, where the executor takes a fill and a copy
// an element. units is how many the plan has; a unit of more than limit*64
// bytes (limit masks: expandMaxEntries, or denseWholeMaxEntries for the
// whole output), or of an empty input, has no table.
func denseExpandOf(levels []level, strides []int, size, units, limit int) *expandTable {
	dilates := false
	span := levels[len(levels)-1].blk // the input elements of a unit
	for i := range levels {
		for _, s := range levels[i].segs {
			dilates = dilates || s.kind == segDilate
		}
		if levels[i].inLen == 0 || strides[i] < 0 {
			return nil
		}
		span += (levels[i].inLen - 1) * strides[i]
	}
	top := &levels[0]
	outElems := top.outLen * top.blk
	unit := outElems * size
	if !dilates || !kernelSize(size) || unit > limit*64 || span > outElems {
		return nil
	}
	idx := indexMap(levels, strides, span, outElems)
	next := int32(0)
	for _, j := range idx {
		if j >= 0 {
			if j != next {
				return nil
			}
			next++
		}
	}
	if int(next) != span {
		return nil
	}
	most := 0 // a table of units from its start where a period is too long
	if lcm(unit, 64) > limit*64 {
		most = min(units, limit*64/unit)
	}
	// Width 0: the word kernels' bound on rows (expandDwordsMaxWidth) was
	// measured against the rows kernels, which do not take dilated rows.
	t := newExpandTableUpTo(limit, unit, 1, 0, span*size, most, func(t *expandTable, p int) {
		for i, j := range idx {
			if j >= 0 {
				t.setRange(p+i*size, p+(i+1)*size)
			}
		}
	})
	if t != nil && expandsHalves() && !repeats(t.masks[:t.entries]) {
		t.halves = newHalfTable(t.masks, t.entries)
	}
	return t
}

// expandGo makes dst from src as the expand kernel does with table t from
// the start of its period (a unit's start), a byte at a time: the calls
// the kernel declines (dst off a line by a part of a word, for the word
// kernel).
func expandGo(dst, src []byte, t *expandTable, pat *[32]byte) {
	k := 0
	for i := range dst {
		j := i % t.period
		if t.most > 0 {
			j = i
		}
		if t.masks[j/64]>>(j%64)&1 != 0 {
			dst[i] = src[k]
			k++
		} else {
			dst[i] = pat[i%32]
		}
	}
}

// denseWholeMaxEntries bounds the table of interior padding whose unit is
// the whole output (a program of one or two levels: one call, so at most
// one table shifted to dst's phase): 64 KiB of masks, outputs of 512 KiB.
// uint8 [1, 54, 54, 13] dilated by 1 on its rows and columns (151 KiB out)
// took 4.97x memmove a row at a time (denseRows), 1.50x by this table.
const denseWholeMaxEntries = 8192

// rowExpandMaxWidth and rowExpandByteMaxWidth are the widest rows, in
// bytes, that rowExpandOf makes a table for: of whole 4-byte words (the
// word kernels), and of bytes.
const (
	rowExpandMaxWidth     = 24
	rowExpandByteMaxWidth = 20
)

// rowExpandOf returns the expand table at element size bytes of the rows
// of lv (constant padding) taken as a stream of rows that follow each
// other in src (rowStride elements apart) and in dst, a row a plane, or
// nil: the executor's runs of such rows (rowsExpandRows) that no plane
// table takes.
func rowExpandOf(lv *level, rowStride, size int) *expandTable {
	r := &lv.row
	width := lv.outLen * lv.blk * size
	if r.kind != rowConst || r.mid == 0 || rowStride != r.mid || width > rowExpandMaxWidth {
		return nil
	}
	t := newExpandTable(width, 1, width, r.left*size, r.mid*size, 0)
	if t.dwords == nil && width > rowExpandByteMaxWidth {
		return nil
	}
	return t
}

// newExpandTable returns the table of planes of plane bytes, or nil when
// its period needs more than expandMaxEntries masks.
func newExpandTable(plane, rows, width, left, mid, top int) *expandTable {
	return newExpandTableOf(plane, rows, width, mid, 0, func(t *expandTable, p int) {
		t.setRows(p+top, rows, width, left, mid)
	})
}

// newExpandTableOf returns the table of units of unit bytes (planes, or
// cubes), each taking rows input rows of mid bytes into rows width bytes
// wide, whose masks set(t, p) sets for the unit at byte p of the period;
// or nil when its period needs more than expandMaxEntries masks, unless
// the plan's most units fit in them (expandTable.most; 0: not known).
func newExpandTableOf(unit, rows, width, mid, most int, set func(t *expandTable, p int)) *expandTable {
	return newExpandTableUpTo(expandMaxEntries, unit, rows, width, mid, most, set)
}

// newExpandTableUpTo is newExpandTableOf with limit masks at most.
func newExpandTableUpTo(limit, unit, rows, width, mid, most int, set func(t *expandTable, p int)) *expandTable {
	period, units := lcm(unit, 64), 0
	if period > limit*64 && most > 0 && most <= limit*64/unit {
		period, units = (most*unit+63)&^63, most
	}
	if period < 64*(expandCopies+1) { // a period of eight masks or more
		period *= (64*(expandCopies+1) + period - 1) / period
	}
	entries := period / 64
	if entries > limit {
		return nil
	}
	t := &expandTable{plane: unit, rows: rows, mid: mid, width: width, period: period, entries: entries, most: units, masks: make([]uint64, entries+expandCopies)}
	last := period
	if units > 0 {
		last = units * unit
	}
	for p := 0; p < last; p += unit {
		set(t, p)
	}
	for i := entries; i < entries+expandCopies; i++ {
		t.masks[i] = t.masks[(i-entries)%entries]
	}
	t.dwords = dwordMasks(t.masks) // the copies' too
	return t
}

// shiftedBy returns t's table for a stream of its planes that starts
// delta bytes (1 to 63) into a plane: mask j takes bytes delta+64j to
// delta+64j+63 of the stream, so that a call whose dst starts delta bytes
// before a line makes the bytes from that line on; the word masks where
// delta is a multiple of 4. It is built at the first call with delta and
// kept: 1024-byte planes (float32 [1, 256, 14, 14] padded by 1) at a dst
// 16 bytes off a line never start on one, where expandAligned looks for
// the first that does.
func (t *expandTable) shiftedBy(delta int) *expandTable {
	if s := t.shifts[delta].Load(); s != nil {
		return s
	}
	s := &expandTable{plane: t.plane, rows: t.rows, mid: t.mid, width: t.width, period: t.period, entries: t.entries, most: t.most,
		masks: make([]uint64, len(t.masks))}
	for j := range t.entries {
		s.masks[j] = t.masks[j]>>delta | t.masks[(j+1)%t.entries]<<(64-delta)
	}
	for i := t.entries; i < len(s.masks); i++ {
		s.masks[i] = s.masks[i-t.entries]
	}
	if t.dwords != nil && delta%4 == 0 {
		s.dwords = dwordMasks(s.masks)
	}
	if t.halves != nil {
		s.halves = newHalfTable(s.masks, s.entries)
	}
	t.shifts[delta].CompareAndSwap(nil, s)
	return t.shifts[delta].Load()
}

// setRows sets the bits of rows rows width bytes apart from byte p of the
// period, mid bytes from left each.
func (t *expandTable) setRows(p, rows, width, left, mid int) {
	for r := range rows {
		t.setRange(p+r*width+left, p+r*width+left+mid)
	}
}

// dwordMasks returns the word masks of the 32-byte halves of masks (bit i
// of byte 2j+h: bytes 32h+4i to 32h+4i+3 of mask j), or nil if a word of
// masks is taken in part.
func dwordMasks(masks []uint64) []byte {
	w := make([]byte, 2*len(masks))
	for j, m := range masks {
		for i := range 16 {
			switch m >> (4 * i) & 15 {
			case 15:
				w[2*j+i/8] |= 1 << (i % 8)
			case 0:
			default:
				return nil
			}
		}
	}
	return w
}

// setRange sets the bits of output bytes [lo, hi) of the period.
func (t *expandTable) setRange(lo, hi int) {
	l, h := uint(lo), uint(hi)
	if l/64 == h/64 {
		t.masks[l/64] |= (1<<(h-l) - 1) << (l % 64)
		return
	}
	t.masks[l/64] |= ^uint64(0) << (l % 64)
	for w := l/64 + 1; w < h/64; w++ {
		t.masks[w] = ^uint64(0)
	}
	if h%64 != 0 {
		t.masks[h/64] |= 1<<(h%64) - 1
	}
}

// inBytes is the input one period of output takes.
func (t *expandTable) inBytes() int {
	if t.most > 0 {
		return t.most * t.rows * t.mid
	}
	return t.period / t.plane * t.rows * t.mid
}
