"""The course's pictures, one module per day; each defines ``PICTURES = {file name: function
returning SVG text}``.
"""
