package pad

import (
	"reflect"
	"sync"
	"unsafe"
)

// This file holds the executor of compiled plans and the generic Go
// kernels it calls. The executor walks the levels of a plan and hands the
// kernels whole runs: a fill of many blocks, a copy of a run of input, a
// copy of finished output. Offsets and counts are in elements.

// kernels is what the executor needs from an element representation.
type kernels interface {
	// fill writes the value to dst[off : off+n].
	fill(off, n int)
	// copySrc copies count units of width elements, unit t from
	// src[srcOff+t*step:], to dst[off+t*width:]. step may be negative (a
	// reversed copy), zero (broadcast) or any stride.
	copySrc(off, srcOff, count, width, step int)
	// copyDst is copySrc within dst; source and destination do not overlap.
	copyDst(off, from, count, width, step int)
}

// execute runs the levels of a plan with the given input strides.
func execute[K kernels](k K, levels []level, strides []int) {
	x := executor[K]{k: k, levels: levels, strides: strides}
	x.run(0, 0, 0)
}

type executor[K kernels] struct {
	k       K
	levels  []level
	strides []int
}

// run makes the output sub-tensor of level l at dst offset off from the
// input sub-tensor at src offset srcOff.
func (x *executor[K]) run(l, off, srcOff int) {
	lv := &x.levels[l]
	blk, stride := lv.blk, x.strides[l]
	innermost := l == len(x.levels)-1
	for i := range lv.segs {
		s := &lv.segs[i]
		at := off + s.at*blk
		switch s.kind {
		case segFill:
			x.k.fill(at, s.n*blk)
		case segSrc:
			src := srcOff + s.src*stride
			if innermost {
				x.k.copySrc(at, src, s.n, blk, s.step*stride)
				continue
			}
			for t := 0; t < s.n; t++ {
				x.run(l+1, at+t*blk, src+t*s.step*stride)
			}
		case segDilate:
			src, gap := srcOff+s.src*stride, s.step*blk
			for t := 0; t < s.n; t++ {
				if t > 0 {
					x.k.fill(at, gap)
					at += gap
				}
				if innermost {
					x.k.copySrc(at, src, 1, blk, stride)
				} else {
					x.run(l+1, at, src)
				}
				at += blk
				src += stride
			}
		case segDup:
			x.k.copyDst(at, off+s.src*blk, s.n, blk, s.step*blk)
		case segRepeat:
			if s.step > 0 {
				x.repeatForward(at, s.n*blk, s.step*blk)
			} else {
				x.repeatBackward(at, s.n*blk, -s.step*blk)
			}
		}
	}
}

// repeatForward sets dst[off+t] = dst[off+t-period] for t in [0, n), the
// period before off being written. Each copy reads the longest written run
// in phase, so the copies double in length.
func (x *executor[K]) repeatForward(off, n, period int) {
	from := off - period
	for done := 0; done < n; {
		src := from + done%period
		c := min(n-done, off+done-src)
		x.k.copyDst(off+done, src, 1, c, c)
		done += c
	}
}

// repeatBackward sets dst[off+t] = dst[off+t+period] for t in [0, n), the
// period after off+n being written, working from the end.
func (x *executor[K]) repeatBackward(off, n, period int) {
	end := off + n
	for done := 0; done < n; {
		shift := period + done - done%period // a multiple of the period, <= what is written
		c := min(n-done, shift)
		to := end - done - c
		x.k.copyDst(to, to+shift, 1, c, c)
		done += c
	}
}

// byteKernels handles elements as raw bytes: every pointer-free type.
type byteKernels struct {
	dst, src []byte
	size     int      // bytes per element
	small    [16]byte // the value, when size <= 16
	value    []byte   // the value, when size > 16
	zero     bool     // the value is all zero bytes
}

func newByteKernels(dst, src []byte, size int) byteKernels {
	return byteKernels{dst: dst, src: src, size: size, zero: true}
}

// setValue sets the value from size bytes (none means zero).
func (k *byteKernels) setValue(v []byte) {
	if len(v) == 0 {
		return
	}
	if k.size <= len(k.small) {
		copy(k.small[:], v)
	} else {
		k.value = v
	}
	k.zero = allZero(v)
}

// setSmallValue sets the value from size <= 16 bytes at p. It copies them,
// so that the caller's value stays on its stack.
func (k *byteKernels) setSmallValue(p unsafe.Pointer) {
	copy(k.small[:k.size], unsafe.Slice((*byte)(p), k.size))
	k.zero = allZero(k.small[:k.size])
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func (k byteKernels) execute(levels []level, strides []int) {
	execute(k, levels, strides)
}

func (k byteKernels) fill(off, n int) {
	b := k.dst[off*k.size : (off+n)*k.size]
	switch {
	case k.zero:
		clear(b)
	case k.size <= len(k.small):
		fillPattern(b, k.small[:k.size])
	default:
		fillPattern(b, k.value)
	}
}

// fillPattern fills b with copies of pat by doubling copies.
func fillPattern(b, pat []byte) {
	if len(b) == 0 {
		return
	}
	n := copy(b, pat)
	for n < len(b) {
		n += copy(b[n:], b[:n])
	}
}

func (k byteKernels) copySrc(off, srcOff, count, width, step int) {
	copyUnits(k.dst, k.src, k.size, off, srcOff, count, width, step)
}

func (k byteKernels) copyDst(off, from, count, width, step int) {
	copyUnits(k.dst, k.dst, k.size, off, from, count, width, step)
}

// copyUnits copies count units of width elements of size bytes, unit t
// from src element srcOff+t*step to dst element off+t*width.
func copyUnits(dst, src []byte, size, off, srcOff, count, width, step int) {
	w := width * size
	d := off * size
	s := srcOff * size
	if step == width {
		copy(dst[d:d+count*w], src[s:s+count*w])
		return
	}
	st := step * size
	for t := 0; t < count; t++ {
		copy(dst[d:d+w], src[s:s+w])
		d += w
		s += st
	}
}

// typedKernels handles elements as Go values: strings, pointers and any
// type that is not plain bytes of a kernel size.
type typedKernels[T any] struct {
	dst, src []T
	value    T
}

func (k typedKernels[T]) fill(off, n int) {
	b := k.dst[off : off+n]
	if len(b) == 0 {
		return
	}
	b[0] = k.value
	for i := 1; i < len(b); i *= 2 {
		copy(b[i:], b[:i])
	}
}

func (k typedKernels[T]) copySrc(off, srcOff, count, width, step int) {
	copyTyped(k.dst, k.src, off, srcOff, count, width, step)
}

func (k typedKernels[T]) copyDst(off, from, count, width, step int) {
	copyTyped(k.dst, k.dst, off, from, count, width, step)
}

func copyTyped[T any](dst, src []T, off, srcOff, count, width, step int) {
	if step == width {
		copy(dst[off:off+count*width], src[srcOff:srcOff+count*width])
		return
	}
	if width == 1 {
		for t := range dst[off : off+count] {
			dst[off+t] = src[srcOff+t*step]
		}
		return
	}
	for t := 0; t < count; t++ {
		copy(dst[off+t*width:off+(t+1)*width], src[srcOff+t*step:srcOff+t*step+width])
	}
}

// packedKernels handles elements of 4 or 2 bits packed into bytes, the
// first element in the least significant bits.
type packedKernels struct {
	dst, src []byte
	bits     uint
	value    uint8
}

func (k packedKernels) perByte() int { return 8 / int(k.bits) }

func (k packedKernels) get(b []byte, i int) uint8 {
	per := k.perByte()
	return b[i/per] >> (uint(i%per) * k.bits) & (1<<k.bits - 1)
}

func (k packedKernels) set(b []byte, i int, v uint8) {
	per := k.perByte()
	sh := uint(i%per) * k.bits
	b[i/per] = b[i/per]&^((1<<k.bits-1)<<sh) | v<<sh
}

func (k packedKernels) fill(off, n int) {
	per := k.perByte()
	for n > 0 && off%per != 0 { // up to the next byte boundary
		k.set(k.dst, off, k.value)
		off++
		n--
	}
	pattern := k.value
	for sh := k.bits; sh < 8; sh += k.bits {
		pattern |= k.value << sh
	}
	whole := n / per
	fillPattern(k.dst[off/per:off/per+whole], []byte{pattern})
	for i := off + whole*per; i < off+n; i++ {
		k.set(k.dst, i, k.value)
	}
}

func (k packedKernels) copySrc(off, srcOff, count, width, step int) {
	k.copyUnits(k.src, off, srcOff, count, width, step)
}

func (k packedKernels) copyDst(off, from, count, width, step int) {
	k.copyUnits(k.dst, off, from, count, width, step)
}

func (k packedKernels) copyUnits(src []byte, off, srcOff, count, width, step int) {
	if step == width {
		k.copyRun(src, off, srcOff, count*width)
		return
	}
	for t := 0; t < count; t++ {
		k.copyRun(src, off+t*width, srcOff+t*step, width)
	}
}

// copyRun copies n elements; whole bytes at once when both runs are at the
// same position within a byte.
func (k packedKernels) copyRun(src []byte, off, srcOff, n int) {
	per := k.perByte()
	if off%per == srcOff%per {
		for n > 0 && off%per != 0 {
			k.set(k.dst, off, k.get(src, srcOff))
			off, srcOff, n = off+1, srcOff+1, n-1
		}
		whole := n / per
		copy(k.dst[off/per:off/per+whole], src[srcOff/per:srcOff/per+whole])
		off, srcOff, n = off+whole*per, srcOff+whole*per, n-whole*per
	}
	for i := 0; i < n; i++ {
		k.set(k.dst, off+i, k.get(src, srcOff+i))
	}
}

// byteSized reports whether T is plain bytes the byte kernels may move (no
// pointers, 1 to 16 bytes) and its size.
func byteSized[T any]() (int, bool) {
	t := reflect.TypeFor[T]()
	size := int(t.Size())
	if size == 0 || size > 16 {
		return 0, false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return size, true
	case reflect.Array, reflect.Struct:
		if v, ok := pointerFreeCache.Load(t); ok {
			return size, v.(bool)
		}
		free := pointerFree(t)
		pointerFreeCache.Store(t, free)
		return size, free
	}
	return 0, false
}

var pointerFreeCache sync.Map // reflect.Type -> bool

func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array:
		return t.Len() == 0 || pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	case reflect.String, reflect.Pointer, reflect.UnsafePointer, reflect.Slice, reflect.Map,
		reflect.Chan, reflect.Func, reflect.Interface:
		return false
	}
	return true
}

// asBytes views a slice of a pointer-free type as its bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
