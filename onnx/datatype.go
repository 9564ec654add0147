package onnx

import "fmt"

// DataType is an ONNX element type, numbered as TensorProto.DataType in
// onnx/onnx.proto.
type DataType int32

// The TensorProto.DataType values.
const (
	Undefined      DataType = 0
	Float          DataType = 1 // float32
	Uint8          DataType = 2
	Int8           DataType = 3
	Uint16         DataType = 4
	Int16          DataType = 5
	Int32          DataType = 6
	Int64          DataType = 7
	String         DataType = 8
	Bool           DataType = 9 // one byte, 0 or 1
	Float16        DataType = 10
	Double         DataType = 11
	Uint32         DataType = 12
	Uint64         DataType = 13
	Complex64      DataType = 14 // float32 real, then imaginary
	Complex128     DataType = 15 // float64 real, then imaginary
	BFloat16       DataType = 16
	Float8E4M3FN   DataType = 17
	Float8E4M3FNUZ DataType = 18
	Float8E5M2     DataType = 19
	Float8E5M2FNUZ DataType = 20
	Uint4          DataType = 21 // packed, two per byte, first in the low nibble
	Int4           DataType = 22 // packed like Uint4
	Float4E2M1     DataType = 23 // packed like Uint4
	Float8E8M0     DataType = 24
	Uint2          DataType = 25 // packed, four per byte, first in the low bits
	Int2           DataType = 26 // packed like Uint2
)

var typeNames = [...]string{
	"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64",
	"STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64",
	"COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
	"FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2",
}

// String returns the TensorProto.DataType name, such as "FLOAT16".
func (dt DataType) String() string {
	if dt >= 0 && int(dt) < len(typeNames) {
		return typeNames[dt]
	}
	return fmt.Sprintf("DataType(%d)", int32(dt))
}

// Bits returns the storage size of one element in bits: 4 or 2 for the
// packed types, 8 times Size otherwise. It is 0 for String (not stored as
// raw bytes), Undefined and unknown values.
func (dt DataType) Bits() int {
	switch dt {
	case Uint4, Int4, Float4E2M1:
		return 4
	case Uint2, Int2:
		return 2
	}
	return 8 * dt.Size()
}

// Size returns the size of one element in bytes, or 0 for packed types
// (see Bits), String, Undefined and unknown values.
func (dt DataType) Size() int {
	switch dt {
	case Uint8, Int8, Bool, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0:
		return 1
	case Uint16, Int16, Float16, BFloat16:
		return 2
	case Float, Int32, Uint32:
		return 4
	case Double, Int64, Uint64, Complex64:
		return 8
	case Complex128:
		return 16
	}
	return 0
}

// padVersions are the since_version values of the Pad schemas.
var padVersions = [...]int{25, 24, 23, 21, 19, 18, 13, 11, 2, 1}

// schemaVersion returns the Pad version in force at an opset: the largest
// since_version <= opset, or 0 when there is none.
func schemaVersion(opset int) int {
	for _, v := range padVersions {
		if v <= opset {
			return v
		}
	}
	return 0
}

// sinceVersion is the first Pad version whose type list T contains each type.
var sinceVersion = map[DataType]int{
	Float: 1, Double: 1, Float16: 1,
	Int8: 11, Int16: 11, Int32: 11, Int64: 11, Uint8: 11, Uint16: 11, Uint32: 11, Uint64: 11,
	Bool: 13, String: 13, BFloat16: 13, Complex64: 13, Complex128: 13,
	Float8E4M3FN: 21, Float8E4M3FNUZ: 21, Float8E5M2: 21, Float8E5M2FNUZ: 21, Int4: 21, Uint4: 21,
	Float4E2M1: 23,
	Float8E8M0: 24,
	Int2:       25, Uint2: 25,
}

// Supports reports whether the Pad schema in force at opset (the largest Pad
// version <= opset among 1, 2, 11, 13, 18, 19, 21, 23, 24, 25) lists dt in
// its type constraint T. Types are only ever added, so a type is supported
// from the version that introduced it on.
func Supports(opset int, dt DataType) bool {
	since, ok := sinceVersion[dt]
	v := schemaVersion(opset)
	return ok && v > 0 && since <= v
}
