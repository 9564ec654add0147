package onnx_test

import (
	"strings"
	"testing"

	"github.com/tensorpad/pad/onnx"
)

// The TensorProto.DataType numbering, from onnx/onnx.proto.
func TestDataTypeNumbering(t *testing.T) {
	want := map[string]int32{
		"UNDEFINED": 0, "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6, "INT64": 7,
		"STRING": 8, "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12, "UINT64": 13, "COMPLEX64": 14,
		"COMPLEX128": 15, "BFLOAT16": 16, "FLOAT8E4M3FN": 17, "FLOAT8E4M3FNUZ": 18, "FLOAT8E5M2": 19,
		"FLOAT8E5M2FNUZ": 20, "UINT4": 21, "INT4": 22, "FLOAT4E2M1": 23, "FLOAT8E8M0": 24, "UINT2": 25, "INT2": 26,
	}
	consts := map[string]onnx.DataType{
		"UNDEFINED": onnx.Undefined, "FLOAT": onnx.Float, "UINT8": onnx.Uint8, "INT8": onnx.Int8,
		"UINT16": onnx.Uint16, "INT16": onnx.Int16, "INT32": onnx.Int32, "INT64": onnx.Int64,
		"STRING": onnx.String, "BOOL": onnx.Bool, "FLOAT16": onnx.Float16, "DOUBLE": onnx.Double,
		"UINT32": onnx.Uint32, "UINT64": onnx.Uint64, "COMPLEX64": onnx.Complex64, "COMPLEX128": onnx.Complex128,
		"BFLOAT16": onnx.BFloat16, "FLOAT8E4M3FN": onnx.Float8E4M3FN, "FLOAT8E4M3FNUZ": onnx.Float8E4M3FNUZ,
		"FLOAT8E5M2": onnx.Float8E5M2, "FLOAT8E5M2FNUZ": onnx.Float8E5M2FNUZ, "UINT4": onnx.Uint4,
		"INT4": onnx.Int4, "FLOAT4E2M1": onnx.Float4E2M1, "FLOAT8E8M0": onnx.Float8E8M0,
		"UINT2": onnx.Uint2, "INT2": onnx.Int2,
	}
	for name, n := range want {
		dt, ok := consts[name]
		if !ok || int32(dt) != n {
			t.Errorf("%s: constant %d, want %d", name, int32(dt), n)
		}
		if got := onnx.DataType(n).String(); got != name {
			t.Errorf("DataType(%d).String() = %q, want %q", n, got, name)
		}
	}
	if got := onnx.DataType(27).String(); got != "DataType(27)" {
		t.Errorf("unknown type prints %q", got)
	}
	if got := onnx.DataType(-1).String(); got != "DataType(-1)" {
		t.Errorf("negative type prints %q", got)
	}
}

func TestDataTypeSizes(t *testing.T) {
	bits := map[onnx.DataType]int{
		onnx.Float: 32, onnx.Uint8: 8, onnx.Int8: 8, onnx.Uint16: 16, onnx.Int16: 16, onnx.Int32: 32,
		onnx.Int64: 64, onnx.Bool: 8, onnx.Float16: 16, onnx.Double: 64, onnx.Uint32: 32, onnx.Uint64: 64,
		onnx.Complex64: 64, onnx.Complex128: 128, onnx.BFloat16: 16, onnx.Float8E4M3FN: 8,
		onnx.Float8E4M3FNUZ: 8, onnx.Float8E5M2: 8, onnx.Float8E5M2FNUZ: 8, onnx.Uint4: 4, onnx.Int4: 4,
		onnx.Float4E2M1: 4, onnx.Float8E8M0: 8, onnx.Uint2: 2, onnx.Int2: 2,
	}
	for dt := onnx.DataType(-1); dt <= 27; dt++ {
		b := bits[dt] // 0 for Undefined, String and unknown values
		if got := dt.Bits(); got != b {
			t.Errorf("%v.Bits() = %d, want %d", dt, got, b)
		}
		size := 0
		if b%8 == 0 {
			size = b / 8
		}
		if got := dt.Size(); got != size {
			t.Errorf("%v.Size() = %d, want %d", dt, got, size)
		}
	}
}

// typeLists are the Pad type constraints T per version, as the ONNX operator
// documents list them (shared/seeds; Pad-25 from onnx/defs: Pad-24's list
// plus int2 and uint2, i.e. all tensor types up to IRv13).
var typeLists = map[int]string{
	1:  "double float float16",
	2:  "double float float16",
	11: "double float float16 int16 int32 int64 int8 uint16 uint32 uint64 uint8",
	13: "bfloat16 bool complex128 complex64 double float float16 int16 int32 int64 int8 string uint16 uint32 uint64 uint8",
	18: "bfloat16 bool complex128 complex64 double float float16 int16 int32 int64 int8 string uint16 uint32 uint64 uint8",
	19: "bfloat16 bool complex128 complex64 double float float16 int16 int32 int64 int8 string uint16 uint32 uint64 uint8",
	21: "bfloat16 bool complex128 complex64 double float float16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz int16 int32 int4 int64 int8 string uint16 uint32 uint4 uint64 uint8",
	23: "bfloat16 bool complex128 complex64 double float float16 float4e2m1 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz int16 int32 int4 int64 int8 string uint16 uint32 uint4 uint64 uint8",
	24: "bfloat16 bool complex128 complex64 double float float16 float4e2m1 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz float8e8m0 int16 int32 int4 int64 int8 string uint16 uint32 uint4 uint64 uint8",
	25: "bfloat16 bool complex128 complex64 double float float16 float4e2m1 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz float8e8m0 int16 int2 int32 int4 int64 int8 string uint16 uint2 uint32 uint4 uint64 uint8",
}

// schemaFor is the largest Pad version <= opset, written out per opset.
var schemaFor = []int{0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 11, 11, 13, 13, 13, 13, 13, 18, 19, 19, 21, 21, 23, 24, 25, 25, 25}

// Every (opset, type) pair, opsets 0 to 27 and every DataType value.
func TestSupportsMatrix(t *testing.T) {
	accepted := 0
	for opset := -1; opset < len(schemaFor); opset++ {
		version := 0
		if opset >= 0 {
			version = schemaFor[opset]
		}
		list := " " + typeLists[version] + " "
		for dt := onnx.DataType(-1); dt <= 27; dt++ {
			name := strings.ToLower(dt.String())
			if dt == onnx.Float {
				name = "float" // tensor(float) is FLOAT
			}
			want := version > 0 && dt != onnx.Undefined && strings.Contains(list, " "+name+" ")
			if got := onnx.Supports(opset, dt); got != want {
				t.Errorf("Supports(%d, %v) = %v, want %v (Pad-%d)", opset, dt, got, want, version)
			}
			if want {
				accepted++
			}
		}
	}
	t.Logf("%d accepted (opset, type) pairs", accepted)
	if !onnx.Supports(1000, onnx.Int2) {
		t.Error("a later opset keeps Pad-25's types")
	}
}
