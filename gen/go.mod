module github.com/tensorpad/pad/gen

go 1.25.0
