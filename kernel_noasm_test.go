//go:build !(amd64 || arm64) || !gc || purego || noasm

package pad

var asmKernelSets []asmKernels
