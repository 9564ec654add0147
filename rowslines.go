package pad

import "slices"

// The lines kernel (KERNELS.md item 10) makes the middle rows of a plane,
// rows that follow each other in dst and are made from consecutive input
// rows (suite case g: 116-byte reflect rows), as one stream of
// 64-byte-aligned blocks. The row by row kernels store each row apart, a
// narrow row as two stores that straddle a cache line and a wide one with
// its pads at both ends; here each block is one aligned store of one
// permutation of the two aligned input blocks it reads from. The blocks
// repeat their pattern every few rows (a period), so one table per pair of
// phases (the middle's first byte in a 64-byte line of dst, its first input
// byte in one of src) serves every plane.

// Bounds of the lines tables: the entries of one table, and the bytes of
// a level's tables at one element size.
const (
	linesMaxPeriod = 128
	linesMaxBytes  = 32 << 10
)

// linesTable is the table of one pair of phases, in the kernel's form:
// entries+linesCopies entries (linesEntries; the last ones copies of the
// first ones, so that the kernel's pairs of blocks may run past the
// period's end), each the index of each byte of its block in its 128-byte
// window (tab[64e:64e+64]), bit 7 of the first set where the window moves
// on by 64 bytes before the block.
type linesTable struct {
	tab             []byte
	period, entries int
	// cur is the offset, from the middle's first input byte, of the
	// first window's second block (64-byte aligned in memory).
	cur int
	// advs[m] counts the moves of entries 1..m, total those of a period.
	advs  []int
	total int
}

// moves returns how many times the window moves on in blocks 1..j.
func (t *linesTable) moves(j int) int {
	return j/t.period*t.total + t.advs[j%t.period]
}

// linesSet is the lines tables of the planes of one level at one element
// size: their middle rows, the run of the level's row list, at width
// bytes a row in dst and srcStride bytes a row in src.
type linesSet struct {
	width, srcStride, mid int
	rowSrc                []int32 // the byte of the src row each output byte of a row takes
	// The phases it has tables for, the ones the planes take when dst and
	// src start on a 64-byte boundary, as Go's large allocations do: the
	// table of dst phase a and src phase b is tables[dIdx[a]*nS+sIdx[b]],
	// none where an index is -1.
	dIdx, sIdx [64]int8
	nS         int
	tables     []*linesTable
}

// table returns the table of the middle of a plane whose first output byte
// is at address phase dph (mod 64) and first input byte at sph, or nil.
func (g *linesSet) table(dph, sph int) *linesTable {
	a, b := g.dIdx[dph&63], g.sIdx[sph&63]
	if a < 0 || b < 0 {
		return nil
	}
	return g.tables[int(a)*g.nS+int(b)]
}

// covers reports whether g has the tables of the middles of pl's planes,
// the first at phases dph and sph. The phases repeat within 64 planes.
func (g *linesSet) covers(dph, sph int, pl planes) bool {
	for q := range min(pl.n, 64) {
		if g.table(dph+q*pl.dst, sph+q*pl.src) == nil {
			return false
		}
	}
	return true
}

// linesOf returns the lines tables at element size bytes of the planes of
// pl, rows of the innermost level lv, planes planeStride input elements
// apart, rows rowStride, elements stride, the output having dstPlanes
// planes of pl and the input srcPlanes; or nil.
func linesOf(pl, lv *level, planeStride, rowStride, stride, size, dstPlanes, srcPlanes int) *linesSet {
	out, base := rowMap(lv, stride)
	if out == nil {
		return nil
	}
	rowSrc := make([]int32, len(out)*size)
	for i := range rowSrc {
		rowSrc[i] = int32(byteSource(out, base, size, i))
	}
	r := &lv.row
	return buildLinesSet(pl.list, rowSrc, r.mid*size, rowStride*size, r.src*stride*size,
		pl.outLen*pl.blk*size, planeStride*size, dstPlanes, srcPlanes)
}

// buildLinesSet returns the lines tables of planes of rows whose output
// byte i takes byte rowSrc[i] of their input row of mid bytes (-1: the
// value), the middle rows of each plane (the run of the rows' list l) from
// consecutive input rows srcStride bytes apart, the input rows at src byte rowOff of their
// plane, dstPlanes planes dstPlane bytes apart in dst and srcPlanes
// srcPlane bytes apart in src; or nil where the kernel does not apply:
// rows that take the value, a width that is a multiple of 64 (its stores
// are aligned already), tables too large, or a block that reads beyond its
// 128-byte window.
func buildLinesSet(l *rowList, rowSrc []int32, mid, srcStride, rowOff, dstPlane, srcPlane, dstPlanes, srcPlanes int) *linesSet {
	width := len(rowSrc)
	period := linesPeriod(width, srcStride)
	if width%64 == 0 || srcStride <= 0 || (l.run1-l.run0)*width < 4*64 || period > linesMaxPeriod ||
		slices.Min(rowSrc) < 0 {
		return nil
	}
	g := &linesSet{width: width, srcStride: srcStride, mid: mid, rowSrc: rowSrc}
	ds := planePhases(&g.dIdx, l.run0*width, dstPlane, dstPlanes)
	ss := planePhases(&g.sIdx, rowOff+int(l.idx[l.run0])*srcStride, srcPlane, srcPlanes)
	if len(ds)*len(ss)*(linesEntries(period)+linesCopies)*64 > linesMaxBytes {
		return nil
	}
	g.nS = len(ss)
	for _, a := range ds {
		for _, b := range ss {
			gt := linesTableOf(rowSrc, srcStride, period, a, b)
			if gt == nil {
				return nil
			}
			g.tables = append(g.tables, gt)
		}
	}
	return g
}

// planePhases returns the phases (mod 64) at which n planes, step bytes
// apart, put byte first of a plane when the first plane starts on a
// 64-byte boundary, in order, and sets idx to each one's index, -1 for
// the others.
func planePhases(idx *[64]int8, first, step, n int) []int {
	for i := range idx {
		idx[i] = -1
	}
	var out []int
	for q := range min(n, 64) { // the phases repeat within 64 planes
		if a := (first + q*step) & 63; idx[a] < 0 {
			idx[a] = int8(len(out))
			out = append(out, a)
		}
	}
	return out
}

// linesPeriod is the period, in blocks, of rows of width bytes from input
// rows srcStride bytes apart: the blocks of the fewest rows that are both
// whole lines of output and whole lines of input.
func linesPeriod(width, srcStride int) int {
	return lcm(64/gcd64(width), 64/gcd64(srcStride)) * width / 64
}

// linesCopies is the number of entries after a table's period that repeat
// its first ones: the lines kernel makes two blocks a turn and moves back
// by a period only between turns (as expandCopies for the expand kernels).
const linesCopies = 2

// linesEntries is the number of distinct entries of a table of the
// period: the period, but at least a turn of the kernel's blocks.
func linesEntries(period int) int { return max(period, linesCopies) }

// linesTableOf builds the table of rows whose output byte i takes byte
// rowSrc[i] of their input row, srcStride bytes apart in src, whose first
// output byte is at phase dph of a line and first input byte at phase sph;
// nil if a block reads beyond its window.
func linesTableOf(rowSrc []int32, srcStride, period, dph, sph int) *linesTable {
	width := len(rowSrc)
	// block sets in to the input bytes, from sph's line, of the bytes of
	// block j (output bytes 64j-dph on, >= 0) and returns the line of the
	// highest.
	var in [64]int
	block := func(j int) int {
		o := 64*j - dph
		base, rem := sph+o/width*srcStride, o%width
		hi := 0
		for i := range in {
			v := base + int(rowSrc[rem])
			in[i], hi = v, max(hi, v)
			if rem++; rem == width {
				base, rem = base+srcStride, 0
			}
		}
		return hi &^ 63
	}
	// Entry e is made from block period+e, whose bytes are all at o >= 0;
	// block e is the same, one period of rows (a multiple of 64 input
	// bytes) earlier.
	entries := linesEntries(period)
	gt := &linesTable{tab: make([]byte, 64*(entries+linesCopies)), period: period, entries: entries, advs: make([]int, period)}
	shift := period * 64 / width * srcStride
	last := block(period - 1)
	for e := range period {
		c := block(period + e)
		if e == 0 {
			gt.cur = c - shift - sph
		}
		adv := 0
		switch c - last {
		case 0:
		case 64:
			adv = 1
			gt.total++
		default:
			return nil
		}
		last = c
		x := gt.tab[64*e:][:64]
		for i, v := range in {
			k := v - (c - 64)
			if uint(k) >= 128 {
				return nil
			}
			x[i] = byte(k)
		}
		x[0] |= byte(adv << 7)
		if e > 0 {
			gt.advs[e] = gt.advs[e-1] + adv
		}
	}
	for e := period; e < entries+linesCopies; e++ {
		copy(gt.tab[64*e:][:64], gt.tab[64*(e-period):])
	}
	return gt
}

// rowsLinesGo is the Go version of the lines kernel (KERNELS.md item
// 10): dst[64j:64j+64] is block j, the windows are at src offsets first
// and cur (multiples of 64 from an aligned address).
func rowsLinesGo(dst, src []byte, first, cur, n int, tab []byte, entries int, head, tail uint64) {
	prev := first
	for j := range n {
		x := tab[64*(j%entries):][:64]
		if j > 0 && x[0]&0x80 != 0 {
			prev, cur = cur, cur+64
		}
		m := ^uint64(0)
		if j == 0 {
			m &= head
		}
		if j == n-1 {
			m &= tail
		}
		for i := range 64 {
			if m>>i&1 == 0 {
				continue
			}
			if k := int(x[i] & 127); k < 64 {
				dst[64*j+i] = src[prev+k]
			} else {
				dst[64*j+i] = src[cur+k-64]
			}
		}
	}
}

// linesRowsGo makes bytes [from, to) of the middle rows d from the input
// rows s (srcStride bytes apart), output byte i of a row taking byte
// rowSrc[i] of its input row: what the lines kernel leaves where a window
// would reach beyond the input.
func linesRowsGo(d, s []byte, from, to, srcStride int, rowSrc []int32) {
	width := len(rowSrc)
	for o := from; o < to; o++ {
		d[o] = s[o/width*srcStride+int(rowSrc[o%width])]
	}
}

// gcd64 is the greatest common divisor of n and 64.
func gcd64(n int) int {
	n |= 64
	return n & -n
}

// lcm is the least common multiple of a and b (> 0).
func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}
