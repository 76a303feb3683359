import Tender
print("Tender demo placeholder")
