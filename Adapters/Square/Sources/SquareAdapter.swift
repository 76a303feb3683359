import Tender
