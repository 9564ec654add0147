package pad

import "unsafe"

// The ends kernel (KERNELS.md item 14) makes rows whose pads are at most 16
// bytes on each side on CPUs without AVX-512 VBMI, in any mode: a row is a
// copy of its input between its first and last 16 bytes, and each of those
// is one byte shuffle (VPSHUFB) of the first and the last 16 bytes of the
// input row, where the pads of every mode read, blended with the value.
// The rows kernels make each pad apart (a mirrored pad by a reversal, a
// wrapped one by a copy): suite case g's 116-byte reflect rows took 2.5 ns
// a row by rowsMirror1AVX2.

// endsTable is the table of a row's ends: for the head (the row's first 16
// bytes) then the tail (its last 16), 16 indexes into the first 16 bytes
// of the input row, 16 into its last 16 and 16 take masks. Output byte i of
// an end is the OR of the bytes its two indexes pick (an index with bit 7
// set picks 0; else its low 4 bits are the byte), where bit 7 of its mask
// is set, else byte i of the value pattern.
type endsTable [96]byte

// endsFits reports whether rows of width bytes from mid bytes at left suit
// the ends kernel: pads of at most 16 bytes each, at least 32 bytes of
// input (two windows that do not overlap the copy's ends).
func endsFits(width, mid, left int) bool {
	return mid >= 32 && left <= 16 && width-left-mid <= 16 && width <= wideMax
}

// endsTableOf builds the ends table of a row that is a copy between its
// first and last 16 bytes (src(i) the byte of the src row output byte i
// takes, or -1 for the value), or returns nil where an end takes a byte
// outside the first and last 16 bytes of the src row.
func endsTableOf(width, mid int, src func(i int) int) *endsTable {
	t := new(endsTable)
	for half, at := range [2]int{0, width - 16} {
		e := t[48*half:][:48]
		for i := range 16 {
			e[i], e[16+i] = 0x80, 0x80
			switch j := src(at + i); {
			case j < 0:
				continue
			case j < 16:
				e[i] = byte(j)
			case j >= mid-16:
				e[16+i] = byte(j - (mid - 16))
			default:
				return nil
			}
			e[32+i] = 0xff
		}
	}
	return t
}

// bytes is the table as the kernel reads it.
func (t *endsTable) bytes() *[96]byte { return (*[96]byte)(unsafe.Pointer(t)) }

// rowsEndsGo is the Go version of the ends kernel (KERNELS.md item 14):
// row r of dst (at r*dstStride) is width bytes from the mid bytes of src
// row r (at r*srcStride): d[i] = s[i-left] for 16 <= i < width-16, the
// first and the last 16 bytes by tab from s[:16] and s[mid-16:], the value
// from pat (whose period divides 16 and the width).
func rowsEndsGo(dst, src []byte, rows, dstStride, srcStride, width, mid, left int, tab *endsTable, pat *[32]byte) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+width]
		s := src[r*srcStride : r*srcStride+mid]
		copy(d[16:width-16], s[16-left:])
		a, b := s[:16], s[mid-16:]
		for half, at := range [2]int{0, width - 16} {
			e := tab[48*half:][:48]
			for i := range 16 {
				v := pat[i]
				if e[32+i]&0x80 != 0 {
					v = shuffleByte(a, e[i]) | shuffleByte(b, e[16+i])
				}
				d[at+i] = v
			}
		}
	}
}

// shuffleByte is the byte VPSHUFB picks from w by index x.
func shuffleByte(w []byte, x byte) byte {
	if x&0x80 != 0 {
		return 0
	}
	return w[x&15]
}

// The word ends kernel (KERNELS.md item 14b) is the same row for pads of up
// to 32 bytes of elements of 4 bytes or more, on CPUs without AVX-512 VBMI:
// each end is 32 bytes, a dword permutation (VPERMD) of the first and of
// the last 32 bytes of the input row (or, for a pad reflected by 32 bytes,
// of the 32 bytes one element in from the row's end). The rows kernels
// make such pads apart (a mirrored pad by a reversal, a wrapped one by a
// copy): float32 [1, 79, 24, 24] wrapped by 6 took 2.75x memmove that way.

// endsWordsTable is the table of a row's 32-byte ends, and where its two
// windows of the src row start: a = s[aAt:aAt+32] and b =
// s[mid-32-bBefore:mid-bBefore]. idx holds, for the head (the row's first
// 32 bytes) then the tail (its last 32), 8 dword indexes into a and 8 into
// b. Byte i of an end is byte i%4 of dword x&7 of a, where x is the low
// byte of the end's a index dword i/4; where bit 7 of byte i of the b
// indexes is set, byte i%4 of dword y&7 of b instead (y the low byte of
// the b index dword); and where bit 7 of byte i of the a indexes is clear,
// byte i of the value pattern. Tables mark a dword's four bytes alike:
// 0x80808080|j takes dword j.
type endsWordsTable struct {
	idx          [128]byte
	aAt, bBefore int
}

// endsWordsFits reports whether rows of width bytes from mid bytes at left
// suit the word ends kernel: pads of at most 32 bytes each, at least 32
// bytes of input.
func endsWordsFits(width, mid, left int) bool {
	return mid >= 32 && left <= 32 && width-left-mid <= 32 && width <= wideMax
}

// endsWordsTableOf builds the word ends table of a row that is a copy
// between its first and last 32 bytes (src(i) the byte of the src row
// output byte i takes, or -1 for the value), of elements of size bytes, or
// returns nil where an end's dword is not a dword of the windows: the
// first and the last 32 bytes of the src row, or, failing that, those one
// element further in on either side (the pads that reflect reads, by 32
// bytes, from s[size:size+32] and s[mid-32-size:mid-size]).
func endsWordsTableOf(width, mid, size int, src func(i int) int) *endsWordsTable {
	for _, aAt := range [2]int{0, size} {
		for _, bBefore := range [2]int{0, size} {
			if aAt+32 > mid || bBefore+32 > mid {
				continue
			}
			if t := endsWordsTableAt(width, mid, aAt, bBefore, src); t != nil {
				return t
			}
		}
	}
	return nil
}

// endsWordsTableAt is endsWordsTableOf with windows at aAt and bBefore.
func endsWordsTableAt(width, mid, aAt, bBefore int, src func(i int) int) *endsWordsTable {
	t := &endsWordsTable{aAt: aAt, bBefore: bBefore}
	bAt := mid - 32 - bBefore
	for half, at := range [2]int{0, width - 32} {
		a, b := t.idx[64*half:][:32], t.idx[64*half+32:][:32]
		for u := range 8 {
			j := src(at + 4*u)
			for i := 1; i < 4; i++ {
				if src(at+4*u+i) != j+i && (j >= 0 || src(at+4*u+i) >= 0) {
					return nil // not one dword of the src row, nor all value
				}
			}
			var x, y byte
			switch {
			case j < 0:
			case j >= aAt && j < aAt+32 && (j-aAt)%4 == 0:
				x = 0x80 | byte((j-aAt)/4)
			case j >= bAt && j < bAt+32 && (j-bAt)%4 == 0:
				x, y = 0x80, 0x80|byte((j-bAt)/4)
			default:
				return nil
			}
			a[4*u], b[4*u] = x, y // the low byte, then the sign bits
			for i := 1; i < 4; i++ {
				a[4*u+i], b[4*u+i] = x&0x80, y&0x80
			}
		}
	}
	return t
}

// rowsEndsWordsGo is the Go version of the word ends kernel (KERNELS.md
// item 14b): row r of dst (at r*dstStride) is width bytes from the mid
// bytes of src row r (at r*srcStride): d[left:left+mid] = s[:mid], then
// the first and the last 32 bytes by tab from its windows, the value from
// pat (whose period divides 32 and the width).
func rowsEndsWordsGo(dst, src []byte, rows, dstStride, srcStride, width, mid, left int, tab *endsWordsTable, pat *[32]byte) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+width]
		s := src[r*srcStride : r*srcStride+mid]
		copy(d[left:], s) // then the ends overwrite its first and last bytes
		a, b := s[tab.aAt:][:32], s[mid-32-tab.bBefore:][:32]
		for half, at := range [2]int{0, width - 32} {
			x, y := tab.idx[64*half:][:32], tab.idx[64*half+32:][:32]
			for i := range 32 {
				v := a[4*int(x[i&^3]&7)+i&3]
				if y[i]&0x80 != 0 {
					v = b[4*int(y[i&^3]&7)+i&3]
				}
				if x[i]&0x80 == 0 {
					v = pat[i]
				}
				d[at+i] = v
			}
		}
	}
}
