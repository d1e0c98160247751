"""The pages of a night: the organizer's dashboard and its actions, the desk grid, the phones'
table and couple pages, the projector, standings and the win grid, the prize pages and the print
page, with their forms, their reads and their URLs (``urls``)."""
